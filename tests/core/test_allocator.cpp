// The context's allocator: statistics exact under both allocators (XGPU_ALLOCATOR=caching, the
// default, and direct), the cache returned by empty_cache, pooled blocks that kernels, copies
// and maps see as whole buffers, stream-ordered reuse, the memory limit and out_of_memory.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <thread>
#include <xgpu/opencl.hpp>

#include "../../tools/xgpu/bench_alloc_trace.hpp"  // the training step bench memory replays
#include "core/slow_fill.hpp"
#include "queue_gate.hpp"
#include "test_support.hpp"

using xgpu_test::capture_error;
using xgpu_test::check_error;
using xgpu_test::free_while_running;
using xgpu_test::kSlowFill;
using xgpu_test::on_each_pocl_device;
using xgpu_test::QueueGate;

namespace {

constexpr std::size_t kMiB = std::size_t{1} << 20;

bool direct_allocator() { return xgpu_test::env("XGPU_ALLOCATOR").value_or("") == "direct"; }

// What holds under either allocator: reserved covers allocated, and is allocated when direct.
void check_reserved(const xgpu::MemoryStats& stats) {
  CHECK(stats.reserved >= stats.allocated);
  CHECK(stats.peak_reserved >= stats.reserved);
  CHECK(stats.peak_allocated >= stats.allocated);
  if (direct_allocator()) {
    CHECK(stats.reserved == stats.allocated);
  }
}

}  // namespace

TEST_CASE("memory stats count every allocation and free exactly", "[memory]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context context(device);
      const xgpu::Context same = context;  // a copy shares the context's stats
      xgpu::MemoryStats stats = context.memory_stats();
      CHECK(stats.allocated == 0);
      CHECK(stats.reserved == 0);
      CHECK(stats.num_allocs == 0);

      xgpu::Buffer<float> empty = context.alloc<float>(0);  // no memory: not counted
      xgpu::Buffer<std::uint8_t> a = context.alloc<std::uint8_t>(1000);
      xgpu::Buffer<float> b = context.alloc<float>(1024);
      std::uint64_t peak = 0;
      {
        xgpu::Buffer<double> c = context.alloc<double>(3 * kMiB / 8);
        xgpu::Buffer<double> c_copy = c;  // copies share one allocation
        stats = same.memory_stats();
        CHECK(stats.allocated == 1000 + 4096 + 3 * kMiB);
        CHECK(stats.active_blocks == 3);
        CHECK(stats.num_allocs == 3);
        CHECK(stats.num_frees == 0);
        check_reserved(stats);
        peak = stats.allocated;
      }
      stats = context.memory_stats();
      CHECK(stats.allocated == 1000 + 4096);
      CHECK(stats.active_blocks == 2);
      CHECK(stats.num_frees == 1);
      CHECK(stats.peak_allocated == peak);
      check_reserved(stats);

      // A move hands the allocation over: nothing freed; the moved-from buffer holds nothing.
      xgpu::Buffer<float> moved = std::move(b);
      CHECK(b.bytes() == 0);
      CHECK(xgpu::interop::native(b) == nullptr);
      b = xgpu::Buffer<float>();  // it holds no allocation: dropping it frees nothing
      CHECK(context.memory_stats().num_frees == 1);
      CHECK(context.memory_stats().active_blocks == 2);
      moved = xgpu::Buffer<float>();
      stats = context.memory_stats();
      CHECK(stats.allocated == 1000);
      CHECK(stats.num_frees == 2);

      context.reset_peak_stats();
      stats = context.memory_stats();
      CHECK(stats.peak_allocated == 1000);
      CHECK(stats.peak_reserved == stats.reserved);
      a = xgpu::Buffer<std::uint8_t>();
      stats = context.memory_stats();
      CHECK(stats.allocated == 0);
      CHECK(stats.active_blocks == 0);
      CHECK(stats.num_allocs == 3);
      CHECK(stats.num_frees == 3);
      CHECK(stats.num_ooms == 0);
    }
  }
}

TEST_CASE("memory stats stay exact with several threads allocating", "[memory]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context context(device);
      constexpr int kThreads = 4;
      constexpr int kRounds = 150;
      std::vector<std::vector<xgpu::Buffer<std::uint8_t>>> kept(kThreads);
      std::atomic<std::uint64_t> kept_bytes{0};
      std::vector<std::thread> threads;
      for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t] {
          std::mt19937 random(static_cast<unsigned>(t) + 1);
          std::uniform_int_distribution<std::size_t> size(1, 300000);
          for (int round = 0; round < kRounds; ++round) {
            auto buffer = context.alloc<std::uint8_t>(size(random));
            if (round % 5 == 0) {  // every fifth stays alive; the rest go at once
              kept_bytes += buffer.bytes();
              kept[t].push_back(std::move(buffer));
            }
          }
        });
      }
      for (std::thread& thread : threads) thread.join();
      xgpu::MemoryStats stats = context.memory_stats();
      CHECK(stats.allocated == kept_bytes.load());
      CHECK(stats.num_allocs == kThreads * kRounds);
      CHECK(stats.num_frees == kThreads * kRounds - kThreads * kRounds / 5);
      CHECK(stats.active_blocks == kThreads * kRounds / 5);
      check_reserved(stats);
      kept.clear();
      stats = context.memory_stats();
      CHECK(stats.allocated == 0);
      CHECK(stats.active_blocks == 0);
    }
  }
}

TEST_CASE("empty_cache returns every unused block to the driver", "[memory]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context context(device);
      // 12 MiB is a segment of its own, exactly its size: reserved can come back to allocated.
      xgpu::Buffer<std::uint8_t> large = context.alloc<std::uint8_t>(12 * kMiB);
      {
        std::vector<xgpu::Buffer<float>> small;
        for (std::size_t n : {1, 100, 5000, 70000, 200000})
          small.push_back(context.alloc<float>(n));
        auto mid = context.alloc<std::uint8_t>(4 * kMiB);
      }
      xgpu::MemoryStats stats = context.memory_stats();
      CHECK(stats.allocated == 12 * kMiB);
      if (!direct_allocator()) {
        CHECK(stats.reserved > stats.allocated);  // the slabs and the 4 MiB segment stay cached
      }
      context.empty_cache();
      stats = context.memory_stats();
      CHECK(stats.reserved == stats.allocated);
      large = xgpu::Buffer<std::uint8_t>();
      context.empty_cache();
      CHECK(context.memory_stats().reserved == 0);
    }
  }
}

TEST_CASE("large requests get segments their size, so a training step wastes little", "[memory]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context context(device);
      {
        // A 3 MiB request: a segment of 4 MiB (2 MiB steps), not a shared 20 MiB one.
        auto mid = context.alloc<std::uint8_t>(3 * kMiB);
        CHECK(context.memory_stats().reserved == (direct_allocator() ? 3 : 4) * kMiB);
      }
      {
        // The freed 4 MiB block serves a 1.5 MiB request (no new segment) and keeps the rest.
        auto smaller = context.alloc<std::uint8_t>(3 * kMiB / 2);
        CHECK(context.memory_stats().reserved == (direct_allocator() ? 3 * kMiB / 2 : 4 * kMiB));
      }
      context.empty_cache();
      // The small transformer's step of `xgpu bench memory --quick`: its peak reserved within
      // 1.25x of its peak allocated once the first step has filled the cache.
      const auto step = xgpu::cli::bench::small_transformer(true);
      xgpu::cli::bench::replay_training(context, step, 1);
      context.reset_peak_stats();
      xgpu::cli::bench::replay_training(context, step, 2);
      const xgpu::MemoryStats stats = context.memory_stats();
      INFO("peak reserved " << stats.peak_reserved << ", peak allocated " << stats.peak_allocated);
      CHECK(stats.peak_allocated > 20 * kMiB);  // the step did run
      CHECK(static_cast<double>(stats.peak_reserved) <=
            1.25 * static_cast<double>(stats.peak_allocated));
    }
  }
}

TEST_CASE("pooled buffers are whole buffers to kernels, copies, fills, maps and OpenCL",
          "[memory]") {
  const char* source = R"(
    kernel void stamp(global int* out, int base) {
      size_t i = get_global_id(0);
      out[i] = base + (int)i;
    })";
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context context(device);
      xgpu::Queue queue = context.queue();
      xgpu::Kernel stamp = context.build({"stamp.cl", source}).kernel("stamp");
      // Neighbours in one slab: each written by a kernel, a fill or a copy, none spilling.
      const std::vector<std::size_t> sizes{1, 3, 64, 129, 1000, 4097};
      std::vector<xgpu::Buffer<int>> buffers;
      for (std::size_t n : sizes) buffers.push_back(context.alloc<int>(n));
      for (std::size_t k = 0; k < sizes.size(); ++k) {
        queue.launch(stamp, xgpu::Range{sizes[k]}, buffers[k], static_cast<int>(k * 10000));
      }
      xgpu::Buffer<int> filled = context.alloc<int>(33);
      queue.fill(filled, -7);
      xgpu::Buffer<int> copied = context.alloc<int>(1000);
      queue.copy(buffers[4], copied);
      for (std::size_t k = 0; k < sizes.size(); ++k) {
        std::vector<int> expected(sizes[k]);
        for (std::size_t i = 0; i < sizes[k]; ++i) expected[i] = static_cast<int>(k * 10000 + i);
        CHECK(queue.read(buffers[k]) == expected);
        // The OpenCL object is exactly the buffer's bytes, whatever slab it sits in.
        std::size_t cl_size = 0;
        REQUIRE(clGetMemObjectInfo(xgpu::opencl::buffer(buffers[k]), CL_MEM_SIZE, sizeof cl_size,
                                   &cl_size, nullptr) == CL_SUCCESS);
        CHECK(cl_size == sizes[k] * sizeof(int));
      }
      CHECK(queue.read(filled) == std::vector<int>(33, -7));
      CHECK(queue.read(copied) == queue.read(buffers[4]));
      {
        xgpu::Mapping<int> mapping = queue.map(buffers[3]);
        REQUIRE(mapping.size() == 129);
        CHECK(mapping[128] == 3 * 10000 + 128);
        mapping[0] = 42;
      }
      CHECK(queue.read(buffers[3])[0] == 42);
      CHECK(queue.read(buffers[2])[63] == 2 * 10000 + 63);  // the neighbour is untouched
    }
  }
}

// A block freed while a kernel still writes it must not reach another queue before the kernel
// ends: if it did, the kernel's late writes would land in the new owner's data. Also when a
// later command of another queue used the buffer and has finished: queues are not ordered
// with each other, so the last command noted is not the last to end.
TEST_CASE("a block freed while a kernel writes it is not handed out early", "[memory]") {
  on_each_pocl_device([&](xgpu::Context& context) {
    xgpu::Queue writer = context.queue();
    xgpu::Queue other = context.queue();
    xgpu::Kernel slow = context.build({"slow_fill.cl", kSlowFill}).kernel("slow_fill");
    const std::size_t n = 256;
    // Submitted: the launch gives no Event, and the pool asks for none: the queue noted is
    // all it has (its marker when the buffer goes).
    for (const auto& [other_used_it_after, submitted] :
         {std::pair{false, false}, std::pair{true, false}, std::pair{false, true}}) {
      INFO("a finished fill on another queue after the kernel: " << other_used_it_after);
      INFO("launched by submit, no Event: " << submitted);
      // The blocks of the rounds before are idle, so which block the pool picks does not
      // depend on how soon a loaded machine ran their markers.
      writer.finish();
      other.finish();
      xgpu::Event running;
      cl_mem freed_handle = nullptr;
      QueueGate gate(context, writer);  // the kernel waits for it: pending, for sure
      {
        xgpu::Buffer<int> doomed = context.alloc<int>(n);
        freed_handle = xgpu::opencl::buffer(doomed);
        if (submitted) {
          writer.submit(slow, xgpu::Range{n}, doomed, 3000000);
          running = writer.marker();
        } else {
          running = writer.launch(slow, xgpu::Range{n}, doomed, 3000000);
        }
        writer.flush();
        if (other_used_it_after) {
          other.fill(doomed, 5, 1);
          other.finish();
        }
      }  // freed while the kernel runs
      // When only `writer` used it, the block is handed out at once (this thread's last
      // queue was `writer`); then `other` must wait for the kernel before writing it.
      xgpu::Buffer<int> fresh = context.alloc<int>(n);
      // The kernel must still be pending for this test to say anything (the gate's watchdog
      // has not opened it: nothing above waited for the kernel).
      REQUIRE(running.status() != xgpu::EventStatus::complete);
      gate.open();  // the kernel runs while `other` writes the block
      other.write(fresh, std::vector<int>(n, 2));
      running.wait();
      CHECK(other.read(fresh) == std::vector<int>(n, 2));
      if (!direct_allocator()) {
        CHECK((xgpu::opencl::buffer(fresh) == freed_handle) == !other_used_it_after);
      }
      // Once the kernel is done, the block is free again: the same size reuses it. (The
      // writer's queue is drained first: the marker the pool placed after the kernel may end a
      // little after the kernel's own event.)
      writer.finish();
      fresh = xgpu::Buffer<int>();
      if (!direct_allocator()) {
        xgpu::Buffer<int> reused = context.alloc<int>(n);
        xgpu::Buffer<int> reused_too = context.alloc<int>(n);
        CHECK((xgpu::opencl::buffer(reused) == freed_handle ||
               xgpu::opencl::buffer(reused_too) == freed_handle));
      }
    }
  });
}

// Reuse at once (docs/memory.md): a block freed while its queue still runs a kernel on it goes
// to the next request of this thread, whose last queue it was; that queue's commands come after
// the kernel's, and a native handle waits for the kernel.
TEST_CASE("a block freed on a busy queue is reused at once, after its commands", "[memory]") {
  if (direct_allocator()) {
    SUCCEED("XGPU_ALLOCATOR=direct: no pool");
    return;
  }
  on_each_pocl_device([&](xgpu::Context& context) {
    xgpu::Queue queue = context.queue();
    xgpu::Kernel slow = context.build({"slow_fill.cl", kSlowFill}).kernel("slow_fill");
    const std::size_t n = 256;
    for (const bool through_native_handle : {false, true}) {
      INFO("the new buffer's first use is its native handle: " << through_native_handle);
      auto [running, freed_handle, reserved, fresh] = free_while_running(context, queue, slow, n);
      CHECK(context.memory_stats().reserved == reserved);  // no new memory
      if (through_native_handle) {
        CHECK(xgpu::opencl::buffer(fresh) == freed_handle);
        CHECK(running.status() == xgpu::EventStatus::complete);
      } else {
        queue.write(fresh, std::vector<int>(n, 2));  // in order: after the kernel
        CHECK(queue.read(fresh) == std::vector<int>(n, 2));
        CHECK(xgpu::opencl::buffer(fresh) == freed_handle);
      }
    }
  });
}

TEST_CASE("the memory limit gives out_of_memory, keeps what was allocated, allows less",
          "[memory]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context context(device);
      xgpu::Queue queue = context.queue();
      context.set_memory_limit(8 * kMiB);
      CHECK(context.memory_stats().limit == 8 * kMiB);
      xgpu::Buffer<std::uint8_t> kept = context.alloc<std::uint8_t>(3 * kMiB);
      queue.fill(kept, std::uint8_t{0x5a});
      {  // cached after its free: the failing request must return it first
        auto cached = context.alloc<std::uint8_t>(2 * kMiB);
      }
      const xgpu::Error error = capture_error([&] { context.alloc<std::uint8_t>(6 * kMiB); });
      check_error(error, xgpu::Errc::out_of_memory,
                  {"tried to allocate 6 MiB on " + device.info().name + ": ",
                   xgpu::format_bytes(device.info().global_memory) + " total", "limit 8 MiB",
                   "3 MiB allocated by xgpu", " cached"});
      xgpu::MemoryStats stats = context.memory_stats();
      CHECK(stats.num_ooms == 1);
      CHECK(stats.num_retries >= 1);
      CHECK(stats.allocated == 3 * kMiB);
      CHECK(stats.reserved <= 8 * kMiB);
      CHECK(queue.read(kept) == std::vector<std::uint8_t>(3 * kMiB, 0x5a));  // nothing lost
      xgpu::Buffer<std::uint8_t> smaller = context.alloc<std::uint8_t>(4 * kMiB);
      CHECK(context.memory_stats().allocated == 7 * kMiB);
      context.set_memory_limit(0);  // no limit again
      xgpu::Buffer<std::uint8_t> more = context.alloc<std::uint8_t>(6 * kMiB);
      CHECK(context.memory_stats().limit == 0);
    }
  }
}

// XGPU_MEMORY_LIMIT and XGPU_ALLOCATOR are read once per process and applied at each context's
// creation: the CTest entries unit.icd.settings.* set one value each (tests/CMakeLists.txt).
// Every malformed limit is refused by the same parser, which core/test_settings.cpp checks
// through xgpu::check_setting.
TEST_CASE("XGPU_MEMORY_LIMIT is applied at context creation", "[.env_memory_limit]") {
  const std::vector<xgpu::Device> all = xgpu::devices();
  REQUIRE(!all.empty());
  const xgpu::Device& device = all.front();
  const std::string value = xgpu_test::env("XGPU_MEMORY_LIMIT").value_or("");
  INFO("XGPU_MEMORY_LIMIT=" << value);
  if (value == "64M") {
    CHECK(xgpu::Context(device).memory_stats().limit == 64 * kMiB);
  } else if (value == "0.5") {
    CHECK(xgpu::Context(device).memory_stats().limit == device.info().global_memory / 2);
  } else if (value == "lots") {
    check_error(capture_error([&] { xgpu::Context context(device); }), xgpu::Errc::invalid_argument,
                {"XGPU_MEMORY_LIMIT='lots'"});
  } else {
    FAIL("no expectation for XGPU_MEMORY_LIMIT='" << value << "'");
  }
}

TEST_CASE("XGPU_ALLOCATOR is applied at context creation", "[.env_allocator]") {
  const std::vector<xgpu::Device> all = xgpu::devices();
  REQUIRE(!all.empty());
  const xgpu::Device& device = all.front();
  const std::string value = xgpu_test::env("XGPU_ALLOCATOR").value_or("");
  INFO("XGPU_ALLOCATOR=" << value);
  if (value == "pooled") {
    check_error(capture_error([&] { xgpu::Context context(device); }), xgpu::Errc::invalid_argument,
                {"XGPU_ALLOCATOR='pooled'", "caching", "direct"});
  } else if (value == "direct") {  // every buffer its own driver buffer, nothing cached
    xgpu::Context context(device);
    {
      auto a = context.alloc<float>(10);
      auto b = context.alloc<float>(1000);
      CHECK(context.memory_stats().reserved == 4040);
    }
    CHECK(context.memory_stats().reserved == 0);
  } else {
    FAIL("no expectation for XGPU_ALLOCATOR='" << value << "'");
  }
}
