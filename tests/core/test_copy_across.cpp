// Queue::copy between contexts (runtime/src/copy_across.cpp): between two contexts of one
// device, two PoCL devices, PoCL and Oclgrind both ways, at sizes around the staging chunk;
// once 256 MiB between two PoCL devices; its ordering after the source's pending commands (on
// any queue) and among the destination queue's own; and its errors. The peer copy between CUDA
// devices is in backends/cuda/test_cuda_fake.cpp.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <future>
#include <vector>

#include "queue_gate.hpp"
#include "test_support.hpp"

using xgpu_test::capture_error;
using xgpu_test::check_error;

namespace {

// runtime/src/copy_across.hpp's kStagedCopyChunk: the sizes next to it are the pipeline's
// edges (one chunk, one chunk and a byte, two stages reused).
constexpr std::size_t kChunk = std::size_t(4) << 20;

// A multiplicative hash: no period that divides the chunk, so a chunk read from the wrong
// place, or twice, shows.
std::uint8_t pattern(std::size_t i) {
  return static_cast<std::uint8_t>((static_cast<std::uint32_t>(i) * 2654435761u) >> 24);
}

std::vector<std::uint8_t> patterned(std::size_t n) {
  std::vector<std::uint8_t> bytes(n);
  for (std::size_t i = 0; i < n; ++i) bytes[i] = pattern(i);
  return bytes;
}

struct Side {
  xgpu::Context context;
  xgpu::Queue queue;
  explicit Side(const xgpu::Device& device) : context(device), queue(context.queue()) {}
};

// Copies `count` bytes from offset 3 of a patterned source to offset 5 of a destination filled
// with 0xEE, and checks every byte of the destination.
void check_copy(Side& from, Side& to, std::size_t count) {
  INFO(count << " bytes");
  const std::vector<std::uint8_t> source = patterned(count + 7);
  xgpu::Buffer<std::uint8_t> src = from.context.alloc<std::uint8_t>(source.size());
  xgpu::Buffer<std::uint8_t> dst = to.context.alloc<std::uint8_t>(count + 9);
  from.queue.write(src, source);
  to.queue.fill(dst, std::uint8_t{0xEE});
  xgpu::Event done = to.queue.copy(src, dst, count, 3, 5);
  CHECK(static_cast<bool>(done) == (count > 0));
  const std::vector<std::uint8_t> got = to.queue.read(dst);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const std::uint8_t want = i >= 5 && i < 5 + count ? source[i - 5 + 3] : 0xEE;
    wrong += got[i] != want;
  }
  CHECK(wrong == 0);
}

// Every ordered pair of visible devices, and each device with a second context of its own.
std::vector<std::pair<xgpu::Device, xgpu::Device>> pairs() {
  std::vector<std::pair<xgpu::Device, xgpu::Device>> list;
  for (const xgpu::Device& a : xgpu::devices())
    for (const xgpu::Device& b : xgpu::devices()) list.emplace_back(a, b);
  return list;
}

}  // namespace

TEST_CASE("copies between contexts are exact at every size", "[copy_across]") {
  const auto all = pairs();
  REQUIRE_FALSE(all.empty());
  for (const auto& [a, b] : all) {
    DYNAMIC_SECTION(a.describe() << " -> " << b.describe()) {
      Side from(a), to(b);
      for (std::size_t count : {std::size_t{0}, std::size_t{1}, std::size_t{4093}, kChunk - 1,
                                kChunk, kChunk + 1, 2 * kChunk + 3})
        check_copy(from, to, count);
    }
  }
}

TEST_CASE("256 MiB between two PoCL devices", "[copy_across]") {
  const std::vector<xgpu::Device> pocl = xgpu::select_all("pocl");
  if (pocl.size() < 2) {
    SUCCEED("one PoCL device: the two_pocl entry copies 256 MiB");
    return;
  }
  constexpr std::size_t kCount = (std::size_t(256) << 20) / sizeof(std::uint32_t);
  Side from(pocl[0]), to(pocl[1]);
  std::vector<std::uint32_t> host(kCount);
  for (std::size_t i = 0; i < kCount; ++i) host[i] = static_cast<std::uint32_t>(i * 2654435761u);
  xgpu::Buffer<std::uint32_t> src = from.context.alloc<std::uint32_t>(kCount);
  xgpu::Buffer<std::uint32_t> dst = to.context.alloc<std::uint32_t>(kCount);
  from.queue.write(src, host);
  to.queue.copy(src, dst);
  const std::vector<std::uint32_t> got = to.queue.read(dst);
  REQUIRE(got.size() == host.size());
  // Counted, not compared whole: a failure must not print 64M elements.
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < kCount; ++i) wrong += got[i] != host[i];
  CHECK(wrong == 0);
}

TEST_CASE("a copy between contexts comes after the source's pending commands", "[copy_across]") {
  const std::vector<xgpu::Device> pocl = xgpu::select_all("pocl");
  REQUIRE_FALSE(pocl.empty());
  const xgpu::Device& other = pocl.size() > 1 ? pocl[1] : pocl[0];
  Side from(pocl[0]), to(other);
  constexpr std::size_t kCount = 3 * kChunk / sizeof(int) + 5;  // several chunks
  xgpu::Buffer<int> src = from.context.alloc<int>(kCount);
  xgpu::Buffer<int> dst = to.context.alloc<int>(kCount);
  from.queue.fill(src, 1);
  from.queue.finish();
  // A second queue of the source's context, held: the fill on it is still pending when the
  // copy is called, from another thread.
  xgpu::Queue held = from.context.queue();
  xgpu_test::QueueGate gate(from.context, held);
  held.fill(src, 7);
  std::future<void> copy = std::async(std::launch::async, [&] { to.queue.copy(src, dst); });
  CHECK(copy.wait_for(std::chrono::milliseconds(300)) == std::future_status::timeout);
  gate.open();
  copy.get();
  const std::vector<int> got = to.queue.read(dst);
  CHECK(std::count(got.begin(), got.end(), 7) == static_cast<std::ptrdiff_t>(kCount));
}

TEST_CASE("a copy between contexts comes between the destination queue's commands",
          "[copy_across]") {
  const std::vector<xgpu::Device> pocl = xgpu::select_all("pocl");
  REQUIRE_FALSE(pocl.empty());
  Side from(pocl[0]), to(pocl.back());
  constexpr std::size_t kCount = 2 * kChunk / sizeof(int) + 3;
  xgpu::Buffer<int> src = from.context.alloc<int>(kCount);
  xgpu::Buffer<int> dst = to.context.alloc<int>(kCount);
  from.queue.fill(src, 3);
  // Enqueued before the copy, not waited for: the copy's writes come after it ...
  to.queue.fill(dst, 0);
  xgpu::Event copied = to.queue.copy(src, dst);
  // ... and a staged copy is done when the call returns (its staging memory goes with it).
  CHECK(copied.status() == xgpu::EventStatus::complete);
  // Enqueued after the copy: it lands after it.
  to.queue.fill(dst, 9, kCount / 2);
  const std::vector<int> got = to.queue.read(dst);
  CHECK(std::count(got.begin(), got.begin() + kCount / 2, 9) ==
        static_cast<std::ptrdiff_t>(kCount / 2));
  CHECK(std::count(got.begin() + kCount / 2, got.end(), 3) ==
        static_cast<std::ptrdiff_t>(kCount - kCount / 2));
}

TEST_CASE("copies between contexts refuse what they cannot do", "[copy_across][errors]") {
  const xgpu::Device device = xgpu::devices().front();
  Side mine(device), theirs(device);
  xgpu::Buffer<float> ours = mine.context.alloc<float>(8);
  xgpu::Buffer<float> foreign = theirs.context.alloc<float>(4);
  mine.queue.fill(ours, 1.0f);
  theirs.queue.fill(foreign, 2.0f);
  // The destination must be of the queue's context.
  check_error(capture_error([&] { mine.queue.copy(ours, foreign); }), xgpu::Errc::context_mismatch,
              {"destination", "destination's context"});
  // Sizes are checked against both buffers before anything moves.
  check_error(capture_error([&] { mine.queue.copy(foreign, ours, 5); }), xgpu::Errc::out_of_range,
              {"Queue::copy"});
  check_error(capture_error([&] { mine.queue.copy(foreign, ours, 4, 0, 6); }),
              xgpu::Errc::out_of_range, {"Queue::copy"});
  check_error(capture_error([&] { mine.queue.copy(xgpu::Buffer<float>(), ours); }),
              xgpu::Errc::invalid_handle, {"source"});
  CHECK(mine.queue.read(ours) == std::vector<float>(8, 1.0f));
  mine.queue.copy(foreign, ours, 4, 0, 2);
  CHECK(mine.queue.read(ours) ==
        std::vector<float>{1.0f, 1.0f, 2.0f, 2.0f, 2.0f, 2.0f, 1.0f, 1.0f});
}
