// Buffers on every device: round trips of several types and sizes, empty buffers, partial
// transfers with offsets, device copies, fills, mappings, host-visible memory and views.
#include <array>
#include <cstdint>
#include <numeric>
#include <xgpu/extension.hpp>

#include "test_support.hpp"

using xgpu_test::capture_error;
using xgpu_test::check_error;
using xgpu_test::problem_size;

namespace {

struct Pair {
  std::int32_t id;
  float weight;
  bool operator==(const Pair& other) const { return id == other.id && weight == other.weight; }
};

template <class T>
std::vector<T> pattern(std::size_t count, int seed) {
  std::vector<T> values(count);
  for (std::size_t i = 0; i < count; ++i) values[i] = static_cast<T>((i * 7 + seed) % 113);
  return values;
}

template <class T>
void check_round_trip(const xgpu::Context& context, xgpu::Queue& queue, std::size_t count) {
  INFO("round trip of " << count << " elements of " << sizeof(T) << " bytes");
  const std::vector<T> sent = pattern<T>(count, 3);
  xgpu::Buffer<T> buffer = context.alloc<T>(count);
  CHECK(buffer.size() == count);
  CHECK(buffer.bytes() == count * sizeof(T));
  queue.write(buffer, sent);
  CHECK(queue.read(buffer) == sent);
}

}  // namespace

TEST_CASE("write and read round trips", "[memory]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context context(device);
      xgpu::Queue queue = context.queue();
      for (std::size_t count : {std::size_t{1}, std::size_t{17}, problem_size(device, 100000)}) {
        check_round_trip<std::uint8_t>(context, queue, count);
        check_round_trip<std::int32_t>(context, queue, count);
        check_round_trip<float>(context, queue, count);
        check_round_trip<double>(context, queue, count);
        check_round_trip<std::uint64_t>(context, queue, count);
      }
      std::vector<Pair> pairs{{1, 0.5f}, {2, -1.25f}, {3, 1e30f}};
      xgpu::Buffer<Pair> buffer = context.alloc<Pair>(pairs.size());
      queue.write(buffer, pairs);
      CHECK(queue.read(buffer) == pairs);
    }
  }
}

TEST_CASE("an empty buffer is valid everywhere a buffer is", "[memory]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context context(device);
      xgpu::Queue queue = context.queue();
      xgpu::Buffer<float> empty = context.alloc<float>(0);
      xgpu::Buffer<float> other = context.alloc<float>(0);
      CHECK(empty.empty());
      CHECK(empty.size() == 0);
      CHECK(empty.bytes() == 0);
      queue.write(empty, std::vector<float>{});
      queue.write(empty, static_cast<const float*>(nullptr), 0);
      CHECK(queue.read(empty).empty());
      queue.read(empty, static_cast<float*>(nullptr), 0);
      queue.fill(empty, 1.0f).wait();
      queue.copy(empty, other).wait();
      {
        xgpu::Mapping<float> mapping = queue.map(empty);
        CHECK(mapping.size() == 0);
        CHECK(mapping.begin() == mapping.end());
      }
      // Zero elements of a non-empty buffer, too.
      xgpu::Buffer<float> full = context.alloc<float>(4);
      queue.fill(full, 2.0f);
      queue.write(full, static_cast<const float*>(nullptr), 0, 4);
      queue.copy(empty, full, 0);
      CHECK(queue.read(full) == std::vector<float>(4, 2.0f));

      // A kernel may take an empty buffer; it just must not touch it.
      xgpu::Program program =
          context.build({"guarded.cl",
                         "kernel void guarded(global float* data, uint n, global int* seen) {\n"
                         "  if (get_global_id(0) < n) data[get_global_id(0)] = 1.0f;\n"
                         "  seen[0] = 42;\n"
                         "}\n"});
      xgpu::Buffer<int> seen = context.alloc<int>(1);
      queue.fill(seen, 0);
      queue.launch(program.kernel("guarded"), xgpu::Range{1}, empty, 0u, seen).wait();
      CHECK(queue.read(seen) == std::vector<int>{42});
    }
  }
}

TEST_CASE("partial transfers honour counts and offsets", "[memory]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context context(device);
      xgpu::Queue queue = context.queue();
      const std::size_t n = 32;
      xgpu::Buffer<int> buffer = context.alloc<int>(n);
      queue.fill(buffer, -1);

      std::vector<int> ten(10);
      std::iota(ten.begin(), ten.end(), 100);
      queue.write(buffer, ten.data(), 10, 5);
      std::vector<int> expected(n, -1);
      std::copy(ten.begin(), ten.end(), expected.begin() + 5);
      CHECK(queue.read(buffer) == expected);

      queue.write(buffer, std::vector<int>{7, 8}, n - 2);  // the vector form, at the very end
      expected[n - 2] = 7;
      expected[n - 1] = 8;
      CHECK(queue.read(buffer) == expected);

      std::vector<int> part(4, 0);
      queue.read(buffer, part.data(), 4, 6);
      CHECK(part == std::vector<int>{101, 102, 103, 104});

      // xgpu::all from an offset means "to the end".
      std::vector<int> tail(n - 12, 0);
      queue.read(buffer, tail.data(), xgpu::all, 12);
      CHECK(tail == std::vector<int>(expected.begin() + 12, expected.end()));

      // Asynchronous forms complete through their events.
      std::vector<int> fresh(n, 5);
      xgpu::Event written = queue.write_async(buffer, fresh.data());
      written.wait();
      CHECK(written.status() == xgpu::EventStatus::complete);
      std::vector<int> back(n, 0);
      queue.read_async(buffer, back.data()).wait();
      CHECK(back == fresh);
    }
  }
}

TEST_CASE("device copies and fills", "[memory]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context context(device);
      xgpu::Queue queue = context.queue();
      const std::size_t n = problem_size(device, 4096);
      const std::vector<float> values = pattern<float>(n, 11);
      xgpu::Buffer<float> source = context.alloc<float>(n);
      xgpu::Buffer<float> target = context.alloc<float>(n);
      queue.write(source, values);
      queue.copy(source, target).wait();
      CHECK(queue.read(target) == values);

      queue.fill(target, 0.0f);
      queue.copy(source, target, 8, 2, 16);  // 8 elements from 2 to 16
      std::vector<float> expected(n, 0.0f);
      std::copy(values.begin() + 2, values.begin() + 10, expected.begin() + 16);
      CHECK(queue.read(target) == expected);

      queue.fill(target, 2.5f, 5, n - 5);  // only the last five
      std::fill(expected.end() - 5, expected.end(), 2.5f);
      CHECK(queue.read(target) == expected);

      // A pattern wider than a scalar.
      using Quad = std::array<std::int32_t, 4>;
      xgpu::Buffer<Quad> quads = context.alloc<Quad>(9);
      queue.fill(quads, Quad{1, -2, 3, -4}).wait();
      CHECK(queue.read(quads) == std::vector<Quad>(9, Quad{1, -2, 3, -4}));
      xgpu::Buffer<Pair> pairs = context.alloc<Pair>(3);
      queue.fill(pairs, Pair{9, 0.25f});
      CHECK(queue.read(pairs) == std::vector<Pair>(3, Pair{9, 0.25f}));
    }
  }
}

TEST_CASE("mappings give the host the buffer's memory", "[memory]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context context(device);
      xgpu::Queue queue = context.queue();
      const std::size_t n = 64;
      xgpu::Buffer<int> buffer = context.alloc<int>(n);
      queue.write(buffer, pattern<int>(n, 1));
      {
        xgpu::Mapping<int> mapping = queue.map(buffer);
        REQUIRE(mapping.size() == n);
        REQUIRE(mapping.data() != nullptr);
        CHECK(std::vector<int>(mapping.begin(), mapping.end()) == pattern<int>(n, 1));
        for (std::size_t i = 0; i < n; ++i) mapping[i] = static_cast<int>(i) * 3;
      }  // unmapped here
      std::vector<int> expected(n);
      for (std::size_t i = 0; i < n; ++i) expected[i] = static_cast<int>(i) * 3;
      CHECK(queue.read(buffer) == expected);

      // A sub-range: elements 8..15 only.
      xgpu::Mapping<int> part = queue.map(buffer, 8, 8);
      REQUIRE(part.size() == 8);
      CHECK(part[0] == 24);
      for (int& value : part) value = -value;
      part.unmap();
      CHECK(part.data() == nullptr);
      part.unmap();  // a second unmap does nothing
      for (std::size_t i = 8; i < 16; ++i) expected[i] = -expected[i];
      CHECK(queue.read(buffer) == expected);

      // The rest from an offset, and a mapping moved to another owner.
      xgpu::Mapping<int> tail = queue.map(buffer, xgpu::all, n - 4);
      CHECK(tail.size() == 4);
      xgpu::Mapping<int> moved = std::move(tail);
      CHECK(tail.data() == nullptr);
      moved[3] = 12345;
      moved.unmap();
      CHECK(queue.read(buffer).back() == 12345);
    }
  }
}

TEST_CASE("host-visible buffers work with kernels and mappings", "[memory]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context context(device);
      xgpu::Queue queue = context.queue();
      const std::size_t n = problem_size(device, 1 << 16);
      xgpu::Buffer<float> input = context.alloc<float>(n, xgpu::Access::read_only, true);
      xgpu::Buffer<float> output = context.alloc<float>(n, xgpu::Access::write_only, true);
      {
        xgpu::Mapping<float> mapping = queue.map(input);
        for (std::size_t i = 0; i < n; ++i) mapping[i] = static_cast<float>(i % 1000);
      }
      xgpu::Program program =
          context.build({"twice.cl",
                         "kernel void twice(global const float* in, global float* out) {\n"
                         "  out[get_global_id(0)] = 2.0f * in[get_global_id(0)];\n"
                         "}\n"});
      queue.launch(program.kernel("twice"), xgpu::Range{n}, input, output);
      xgpu::Mapping<float> result = queue.map(output);
      std::size_t wrong = 0;
      for (std::size_t i = 0; i < n; ++i) wrong += result[i] != 2.0f * static_cast<float>(i % 1000);
      CHECK(wrong == 0);
    }
  }
}

// Buffer::view: a range of a buffer as a buffer. On the device's base-address alignment it is a
// sub-buffer a kernel takes; elsewhere copies, fills, maps, reads and writes still take it, and
// a launch refuses it naming the alignment.
TEST_CASE("views are ranges of a buffer wherever a buffer goes", "[memory]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context context(device);
      xgpu::Queue queue = context.queue();
      const std::size_t alignment = device.info().base_address_alignment;
      REQUIRE(alignment % sizeof(float) == 0);
      const std::size_t step = alignment / sizeof(float);  // elements per alignment
      const std::size_t n = 4 * step + 37;
      const std::vector<float> values = pattern<float>(n, 5);
      xgpu::Buffer<float> buffer = context.alloc<float>(n);
      queue.write(buffer, values);
      std::vector<float> expected = values;
      xgpu::Program program = context.build(
          {"bump.cl", "kernel void bump(global float* x) { x[get_global_id(0)] += 1000.0f; }\n"});

      // On the alignment: a kernel takes it and touches only its range.
      xgpu::Buffer<float> aligned = buffer.view(step, 2 * step);
      CHECK(aligned.size() == 2 * step);
      CHECK(xgpu::ext::kernel_can_take(aligned));
      CHECK(queue.read(aligned) ==
            std::vector<float>(values.begin() + step, values.begin() + 3 * step));
      queue.launch(program.kernel("bump"), xgpu::Range{aligned.size()}, aligned);
      for (std::size_t i = step; i < 3 * step; ++i) expected[i] += 1000.0f;
      CHECK(queue.read(buffer) == expected);

      // Off the alignment (one element in): copies, fills, maps, reads and writes.
      xgpu::Buffer<float> off = buffer.view(1, 10);
      CHECK_FALSE(xgpu::ext::kernel_can_take(off));
      CHECK(queue.read(off) == std::vector<float>(expected.begin() + 1, expected.begin() + 11));
      queue.write(off, std::vector<float>{-1, -2}, 3);  // elements 4 and 5 of the buffer
      expected[4] = -1;
      expected[5] = -2;
      queue.fill(off, 7.5f, 2, 8);  // elements 9 and 10
      expected[9] = expected[10] = 7.5f;
      {
        xgpu::Mapping<float> mapping = queue.map(off, 1, 6);  // element 7
        REQUIRE(mapping.size() == 1);
        CHECK(mapping[0] == expected[7]);
        mapping[0] = 42.0f;
      }
      expected[7] = 42.0f;
      xgpu::Buffer<float> target = context.alloc<float>(n);
      queue.fill(target, 0.0f);
      queue.copy(off, target.view(n - 12), 10, 0, 1);  // to elements n - 11 ... n - 2
      std::vector<float> copied(n, 0.0f);
      std::copy(expected.begin() + 1, expected.begin() + 11, copied.end() - 11);
      CHECK(queue.read(target) == copied);
      CHECK(queue.read(buffer) == expected);

      // A view of a view counts from its parent; views of one range are the same memory.
      xgpu::Buffer<float> inner = off.view(2, 3);  // elements 3, 4, 5
      CHECK(queue.read(inner) == std::vector<float>(expected.begin() + 3, expected.begin() + 6));
      CHECK(xgpu::ext::same_buffer(inner, buffer.view(3, 3)));
      CHECK(xgpu::ext::overlap(inner, off));
      CHECK_FALSE(xgpu::ext::overlap(inner, buffer.view(6)));
      CHECK(xgpu::ext::kernel_can_take(aligned.view(step)));  // 2 * step from the start

      // A launch refuses the unaligned view and names the alignment; nothing ran.
      const xgpu::Error error = capture_error(
          [&] { queue.launch(program.kernel("bump"), xgpu::Range{off.size()}, off); });
      check_error(error, xgpu::Errc::invalid_argument,
                  {"bump", "argument 0", "4 bytes into its buffer", "base-address alignment",
                   std::to_string(alignment) + " bytes"});
      CHECK(queue.read(buffer) == expected);

      // Copies between overlapping views of one buffer are refused by name.
      check_error(capture_error([&] { queue.copy(buffer.view(0, 8), buffer.view(4, 8)); }),
                  xgpu::Errc::invalid_argument, {"Queue::copy", "overlap"});

      // Ranges past the end, whole and empty views.
      check_error(capture_error([&] { buffer.view(n + 1); }), xgpu::Errc::out_of_range,
                  {"Buffer::view", "offset " + std::to_string(n + 1), std::to_string(n)});
      check_error(capture_error([&] { buffer.view(5, n - 4); }), xgpu::Errc::out_of_range,
                  {"Buffer::view", std::to_string(n - 4) + " element(s)"});
      CHECK(buffer.view(n).empty());
      CHECK(buffer.view(3, 0).empty());
      CHECK(xgpu::ext::same_buffer(buffer.view(0), buffer));
    }
  }
}

TEST_CASE("a view keeps its buffer's memory allocated", "[memory]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context context(device);
      xgpu::Queue queue = context.queue();
      const std::uint64_t before = context.memory_stats().allocated;
      xgpu::Buffer<std::int32_t> view;
      xgpu::Buffer<std::int32_t> unaligned;
      {
        xgpu::Buffer<std::int32_t> buffer = context.alloc<std::int32_t>(1000);
        queue.write(buffer, pattern<std::int32_t>(1000, 2));
        view = buffer.view(0, 500);
        unaligned = buffer.view(3, 5);
      }
      // The buffer is gone, its memory is not: a new allocation must not take it.
      xgpu::Buffer<std::int32_t> other = context.alloc<std::int32_t>(1000);
      queue.fill(other, -1);
      CHECK(context.memory_stats().allocated == before + 2000 * sizeof(std::int32_t));
      const std::vector<std::int32_t> all = pattern<std::int32_t>(1000, 2);
      CHECK(queue.read(view) == std::vector<std::int32_t>(all.begin(), all.begin() + 500));
      CHECK(queue.read(unaligned) == std::vector<std::int32_t>(all.begin() + 3, all.begin() + 8));
      view = {};
      CHECK(context.memory_stats().allocated == before + 2000 * sizeof(std::int32_t));
      unaligned = {};
      CHECK(context.memory_stats().allocated == before + 1000 * sizeof(std::int32_t));
    }
  }
}

TEST_CASE("an untyped buffer is the same memory, typed again only in whole elements", "[memory]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context context(device);
      xgpu::Queue queue = context.queue();
      xgpu::Buffer<std::int32_t> ints = context.alloc<std::int32_t>(6);
      queue.write(ints, std::vector<std::int32_t>{1, 2, 3, 4, 5, 6});
      const xgpu::UntypedBuffer& untyped = ints.untyped();
      CHECK(untyped.bytes() == 24);
      CHECK_FALSE(untyped.empty());
      CHECK(xgpu::UntypedBuffer().empty());

      // Typed again as 8-byte elements: the same bytes, three of them.
      xgpu::Buffer<std::uint64_t> words = xgpu::ext::typed<std::uint64_t>(untyped);
      CHECK(words.size() == 3);
      CHECK(xgpu::ext::same_buffer(words, ints));
      queue.fill(words, std::uint64_t{0});
      CHECK(queue.read(ints) == std::vector<std::int32_t>(6, 0));
      // 24 bytes are no whole number of 16-byte elements.
      check_error(capture_error([&] { xgpu::ext::typed<std::array<std::uint64_t, 2>>(untyped); }),
                  xgpu::Errc::invalid_argument, {"24 bytes", "16 bytes"});

      // backing_object: one key for a buffer and its offset views; none for an empty buffer.
      const xgpu::Buffer<std::int32_t> offset_view = ints.view(1, 2);
      if (!xgpu::ext::kernel_can_take(offset_view))
        CHECK(xgpu::ext::backing_object(offset_view.untyped()) ==
              xgpu::ext::backing_object(untyped));
      CHECK(xgpu::ext::backing_object(untyped) != nullptr);
      CHECK(xgpu::ext::backing_object(xgpu::UntypedBuffer()) == nullptr);

      // context_key: the same for every copy of a context, another for another context.
      const xgpu::Context copy = context;
      xgpu::Context other(device);
      CHECK(xgpu::ext::context_key(copy) == xgpu::ext::context_key(context));
      CHECK(xgpu::ext::context_key(other) != xgpu::ext::context_key(context));
    }
  }
}
