// Launching one kernel again and again: the checks against its signature are made once per
// argument pattern (runtime/src/arg_pattern.hpp), so these tests change the pattern, the
// values and the buffers between launches of one kernel and expect every check to hold each
// time; and Queue::submit, the launch that keeps no Event.
#include <cstdint>
#include <limits>

#include "test_support.hpp"

using xgpu_test::capture_error;
using xgpu_test::check_error;

namespace {

// out[i] = a[i] + b * i, for i below n: a kernel with buffers, an integer and a guard.
const char* const kAddScaled =
    "kernel void add_scaled(global const int* a, uchar b, global int* out, uint n) {\n"
    "  uint i = get_global_id(0);\n"
    "  if (i < n) out[i] = a[i] + b * (int)i;\n"
    "}\n"
    "kernel void sum_local(global const int* a, local int* scratch, global int* out) {\n"
    "  uint l = get_local_id(0);\n"
    "  scratch[l] = a[get_global_id(0)];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  if (l == 0) {\n"
    "    int s = 0;\n"
    "    for (uint k = 0; k < get_local_size(0); ++k) s += scratch[k];\n"
    "    out[get_group_id(0)] = s;\n"
    "  }\n"
    "}\n";

std::vector<int> expected_add_scaled(const std::vector<int>& a, int b, std::size_t n) {
  std::vector<int> out(a.size(), -1);
  for (std::size_t i = 0; i < n; ++i) out[i] = a[i] + b * static_cast<int>(i);
  return out;
}

}  // namespace

TEST_CASE("repeated launches: every check holds at every launch of one kernel", "[launch]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context context(device), other(device);
      xgpu::Queue queue = context.queue();
      xgpu::Kernel kernel = context.build({"add_scaled.cl", kAddScaled}).kernel("add_scaled");
      const std::size_t n = 300;  // several work-groups and a partial one on every device
      std::vector<int> a(n);
      for (std::size_t i = 0; i < n; ++i) a[i] = static_cast<int>(i * 7 % 31);
      xgpu::Buffer<int> da = context.alloc<int>(n), out = context.alloc<int>(n);
      queue.write(da, a);
      const xgpu::Range global{320}, local{64};

      for (int round = 0; round < 3; ++round) {
        // The same C++ types as the pattern just checked, with values that convert (int to
        // uchar, int to uint): fits, then does not fit, then fits again.
        queue.fill(out, -1);
        queue.launch(kernel, xgpu::Launch(global).local(local), da, 3, out, static_cast<int>(n));
        CHECK(queue.read(out) == expected_add_scaled(a, 3, n));
        check_error(capture_error([&] {
                      queue.launch(kernel, xgpu::Launch(global).local(local), da, 300, out,
                                   static_cast<int>(n));
                    }),
                    xgpu::Errc::argument_type, {"add_scaled", "argument 1", "300"});
        check_error(capture_error([&] {
                      queue.launch(kernel, xgpu::Launch(global).local(local), da, 3, out, -1);
                    }),
                    xgpu::Errc::argument_type, {"add_scaled", "argument 3", "-1"});
        queue.fill(out, -1);
        queue.launch(kernel, xgpu::Launch(global).local(local), da, 5, out, 200);
        CHECK(queue.read(out) == expected_add_scaled(a, 5, 200));

        // The same types again, with buffers that are wrong only by their value.
        xgpu::Buffer<int> foreign = other.alloc<int>(n), empty;
        check_error(capture_error([&] {
                      queue.launch(kernel, xgpu::Range{n}, da, 3, foreign, static_cast<int>(n));
                    }),
                    xgpu::Errc::context_mismatch, {"add_scaled", "argument 2", "another context"});
        check_error(capture_error([&] {
                      queue.launch(kernel, xgpu::Range{n}, empty, 3, out, static_cast<int>(n));
                    }),
                    xgpu::Errc::invalid_handle, {"add_scaled", "argument 0", "empty"});

        // Other types, exact this time, and back: each pattern is checked when it changes.
        queue.fill(out, -1);
        queue.submit(kernel, xgpu::Launch(global).local(local), da, std::uint8_t{2}, out,
                     static_cast<std::uint32_t>(n));
        CHECK(queue.read(out) == expected_add_scaled(a, 2, n));
        check_error(capture_error([&] {
                      queue.launch(kernel, xgpu::Range{n}, da, 2.0f, out, std::uint32_t{1});
                    }),
                    xgpu::Errc::argument_type, {"add_scaled", "argument 1", "float"});
        xgpu::Buffer<float> floats = context.alloc<float>(n);
        check_error(capture_error([&] {
                      queue.launch(kernel, xgpu::Range{n}, floats, std::uint8_t{2}, out,
                                   std::uint32_t{1});
                    }),
                    xgpu::Errc::argument_type, {"add_scaled", "argument 0", "Buffer<float>"});
      }
    }
  }
}

TEST_CASE("repeated launches: local memory is checked at every launch", "[launch]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context context(device);
      xgpu::Queue queue = context.queue();
      xgpu::Kernel kernel = context.build({"sum_local.cl", kAddScaled}).kernel("sum_local");
      const std::size_t groups = 5, size = 32;
      std::vector<int> a(groups * size);
      for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<int>(i % 13);
      xgpu::Buffer<int> da = context.alloc<int>(a.size()), sums = context.alloc<int>(groups);
      queue.write(da, a);
      for (int round = 0; round < 2; ++round) {
        queue.launch(kernel, xgpu::Range{a.size()}, xgpu::Range{size}, da, xgpu::Local<int>(size),
                     sums);
        std::vector<int> expected(groups, 0);
        for (std::size_t i = 0; i < a.size(); ++i) expected[i / size] += a[i];
        CHECK(queue.read(sums) == expected);
        check_error(capture_error([&] {
                      queue.launch(kernel, xgpu::Range{a.size()}, xgpu::Range{size}, da,
                                   xgpu::Local<int>(0), sums);
                    }),
                    xgpu::Errc::argument_type, {"sum_local", "argument 1", "0 bytes"});
      }
    }
  }
}

TEST_CASE("Queue::submit: a launch without an Event, in order with the rest", "[launch]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context context(device);
      xgpu::Queue queue = context.queue();
      xgpu::Kernel kernel = context.build({"add_scaled.cl", kAddScaled}).kernel("add_scaled");
      const std::size_t n = 100;
      std::vector<int> a(n, 1);
      xgpu::Buffer<int> da = context.alloc<int>(n), out = context.alloc<int>(n);
      queue.write(da, a);
      // Ten submits, each adding to the last one's result: the queue keeps their order.
      queue.copy(da, out);
      for (int k = 0; k < 10; ++k) queue.submit(kernel, xgpu::Range{n}, out, 1, out, 100u);
      std::vector<int> expected(n);
      for (std::size_t i = 0; i < n; ++i) expected[i] = 1 + 10 * static_cast<int>(i);
      CHECK(queue.read(out) == expected);
      // After an Event, as a launch does.
      xgpu::Event filled = queue.fill(out, 0);
      queue.submit(kernel, xgpu::Launch(xgpu::Range{n}).after({filled}), da, 0, out, 100u);
      CHECK(queue.read(out) == a);
      // The same checks and errors as launch().
      check_error(capture_error([&] { queue.submit(kernel, xgpu::Range{n}, da, 1, out); }),
                  xgpu::Errc::argument_count, {"add_scaled", "takes 4"});
      check_error(capture_error([&] {
                    queue.submit(kernel, xgpu::Range{n}, xgpu::Range{7}, da, 1, out, 100u);
                  }),
                  xgpu::Errc::invalid_range, {"add_scaled"});
    }
  }
}
