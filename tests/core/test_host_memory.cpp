// Host memory (Context::alloc_host, HostBuffer) and cross-queue ordering (Queue::wait,
// Queue::marker) on every device. The long-kernel tests hold a queue busy on purpose so that
// an order that is not enforced shows up as a wrong value or an early completion.
#include <numeric>

#include "test_support.hpp"

using xgpu_test::capture_error;
using xgpu_test::check_error;
using xgpu_test::is_oclgrind;

namespace {

// Each work-item spins `rounds` times, then writes its index + 1: a kernel long enough for
// a command queued behind it (or on another queue) to be seen running early.
const char* const kSpin = R"(
kernel void spin(global float* out, uint rounds) {
  size_t i = get_global_id(0);
  float x = (float)i;
  for (uint r = 0; r < rounds; ++r) x = x * 0.999999f + 1e-7f;
  out[i] = (float)(i + 1) + (x > 1e30f ? 1.0f : 0.0f);
}
)";

// Rounds for about a quarter of a second: Oclgrind simulates about 1000x slower.
unsigned spin_rounds(const xgpu::Device& device) { return is_oclgrind(device) ? 2000 : 4000000; }
constexpr std::size_t kSpinItems = 64;

// Launches the spin on `queue`, for about a quarter of a second: a command enqueued after it
// stays pending that long. Returns the buffer of kSpinItems floats it writes.
xgpu::Buffer<float> start_spin(xgpu::Context& context, xgpu::Queue& queue,
                               const xgpu::Device& device) {
  xgpu::Kernel spin = context.build({"spin.cl", kSpin}).kernel("spin");
  xgpu::Buffer<float> out = context.alloc<float>(kSpinItems);
  queue.launch(spin, xgpu::Range(kSpinItems), out, spin_rounds(device));
  return out;
}

}  // namespace

TEST_CASE("alloc_host gives span-like pinned memory that async copies use", "[host_memory]") {
  xgpu_test::for_each_device([&](xgpu::Context& context, xgpu::Queue& queue, const xgpu::Device&) {
    const std::size_t n = 1000;
    xgpu::HostBuffer<int> source = context.alloc_host<int>(n);
    REQUIRE(source.size() == n);
    REQUIRE(source.data() != nullptr);
    // PoCL and Oclgrind both map CL_MEM_ALLOC_HOST_PTR buffers: no silent fallback.
    CHECK(source.pinned());
    std::iota(source.begin(), source.end(), 5);
    CHECK(source[999] == 1004);

    xgpu::Buffer<int> device_copy = context.alloc<int>(n);
    queue.write_async(device_copy, source).wait();
    xgpu::HostBuffer<int> back = context.alloc_host<int>(n);
    std::fill(back.begin(), back.end(), -1);
    queue.read_async(device_copy, back).wait();
    CHECK(std::equal(back.begin(), back.end(), source.begin()));

    // A chunk: 10 elements from host element 20 into device element 100, and back to 500.
    queue.write_async(device_copy, source, 10, 100, 20);
    queue.read_async(device_copy, back, 10, 100, 500).wait();
    CHECK(back[500] == 25);
    CHECK(back[509] == 34);
    CHECK(back[510] == 515);

    // Empty: valid, no memory, copies of nothing do nothing.
    xgpu::HostBuffer<int> empty = context.alloc_host<int>(0);
    CHECK(empty.size() == 0);
    CHECK(empty.begin() == empty.end());
    CHECK(!queue.write_async(device_copy, empty, 0));
    // A moved-from HostBuffer is empty too.
    xgpu::HostBuffer<int> moved = std::move(back);
    CHECK(back.size() == 0);
    CHECK(back.data() == nullptr);
    CHECK(moved.size() == n);
  });
}

TEST_CASE("HostBuffer copies past either end are refused by name", "[host_memory][errors]") {
  xgpu_test::for_each_device(
      [&](xgpu::Context& context, xgpu::Queue& queue, const xgpu::Device& device) {
        xgpu::HostBuffer<float> host = context.alloc_host<float>(8);
        xgpu::Buffer<float> big = context.alloc<float>(16);
        // all = the rest of the device buffer: 16 elements do not fit 8 host elements.
        check_error(capture_error([&] { queue.write_async(big, host); }), xgpu::Errc::out_of_range,
                    {"HostBuffer of 8"});
        check_error(capture_error([&] { queue.read_async(big, host, 4, 0, 5); }),
                    xgpu::Errc::out_of_range, {"host offset 5"});
        check_error(capture_error([&] { queue.read_async(big, host, 1, 16); }),
                    xgpu::Errc::out_of_range, {"offset 16"});
        xgpu::Context other(device);
        xgpu::Buffer<float> foreign = other.alloc<float>(8);
        check_error(capture_error([&] { queue.write_async(foreign, host); }),
                    xgpu::Errc::context_mismatch, {"another context"});
      });
}

TEST_CASE("a HostBuffer dropped during an async copy is freed only after it", "[host_memory]") {
  xgpu_test::for_each_device(
      [&](xgpu::Context& context, xgpu::Queue& queue, const xgpu::Device& device) {
        const xgpu::Buffer<float> out = start_spin(context, queue, device);
        xgpu::Event copy;
        {
          xgpu::HostBuffer<float> host = context.alloc_host<float>(kSpinItems);
          // In order: runs after the long kernel. Not flushed, so that on Oclgrind (which runs
          // a queue's commands in the thread that flushes it) the copy is still pending too.
          copy = queue.read_async(out, host);
          // Otherwise the test proves nothing: the copy must still be pending here.
          REQUIRE(copy.status() != xgpu::EventStatus::complete);
        }  // the last HostBuffer goes: its free must wait for the copy
        CHECK(copy.status() == xgpu::EventStatus::complete);
        queue.finish();
      });
}

// The same with ordinary memory (XGPU_HOST_MEMORY=pageable): the memory AddressSanitizer
// tracks, so that in the ASan stage a free that did not wait would be a reported use after free.
// XGPU_HOST_MEMORY is read once per process: unit.icd.settings.a sets it (tests/CMakeLists.txt).
TEST_CASE("a pageable HostBuffer dropped during a copy is freed only after it",
          "[.env_host_memory_pageable]") {
  REQUIRE(xgpu_test::env("XGPU_HOST_MEMORY") == std::string("pageable"));
  xgpu_test::for_each_device(
      [&](xgpu::Context& context, xgpu::Queue& queue, const xgpu::Device& device) {
        const xgpu::Buffer<float> out = start_spin(context, queue, device);
        xgpu::Event copy;
        {
          xgpu::HostBuffer<float> host = context.alloc_host<float>(kSpinItems);
          REQUIRE_FALSE(host.pinned());
          copy = queue.read_async(out, host);
          REQUIRE(copy.status() != xgpu::EventStatus::complete);
        }
        CHECK(copy.status() == xgpu::EventStatus::complete);
        queue.finish();
      });
}

// unit.icd.settings.c sets XGPU_HOST_MEMORY=lots.
TEST_CASE("XGPU_HOST_MEMORY with an unknown value is refused by name", "[.env_host_memory_bad]") {
  REQUIRE(xgpu_test::env("XGPU_HOST_MEMORY") == std::string("lots"));
  xgpu::Context context(xgpu::devices().at(0));
  check_error(capture_error([&] { context.alloc_host<int>(4); }), xgpu::Errc::invalid_argument,
              {"XGPU_HOST_MEMORY='lots'", "pageable"});
}

TEST_CASE("Queue::wait and Queue::marker order commands across queues", "[host_memory]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context context(device);
      xgpu::Queue compute = context.queue();
      xgpu::Queue copies = context.queue();
      xgpu::Kernel spin = context.build({"spin.cl", kSpin}).kernel("spin");
      xgpu::Buffer<float> out = context.alloc<float>(kSpinItems);
      compute.fill(out, 0.0f).wait();
      compute.launch(spin, xgpu::Range(kSpinItems), out, spin_rounds(device));
      xgpu::Event done = compute.marker();
      compute.flush();
      REQUIRE(done);
      // The kernel still runs (Oclgrind runs it in flush(): there the order is given already).
      if (!is_oclgrind(device)) CHECK(done.status() != xgpu::EventStatus::complete);
      copies.wait(done);
      xgpu::HostBuffer<float> host = context.alloc_host<float>(kSpinItems);
      xgpu::Event read = copies.read_async(out, host);
      read.wait();
      // Only the kernel's values: a read that did not wait would see the fill's zeros.
      for (std::size_t i = 0; i < kSpinItems; ++i) {
        INFO("element " << i);
        REQUIRE(host[i] == static_cast<float>(i + 1));
      }
      CHECK(done.status() == xgpu::EventStatus::complete);

      // A marker of an idle queue completes; waiting on an empty Event is a no-op.
      compute.marker().wait();
      copies.wait(xgpu::Event());
      copies.finish();
    }
  }
}

TEST_CASE("Queue::wait on another context's event is refused by name", "[host_memory][errors]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context first(device);
      xgpu::Context second(device);
      xgpu::Queue one = first.queue();
      xgpu::Queue two = second.queue();
      xgpu::Event theirs = one.marker();
      check_error(capture_error([&] { two.wait(theirs); }), xgpu::Errc::context_mismatch,
                  {"another context", "Event::wait"});
      theirs.wait();
      two.finish();  // the queue still works after the refusal
      xgpu::Queue empty;
      check_error(capture_error([&] { empty.marker(); }), xgpu::Errc::invalid_handle,
                  {"empty Queue"});
    }
  }
}

// Neither PoCL nor Oclgrind says how much memory is free: nothing, never a figure of ours.
TEST_CASE("free memory is reported only where the driver says", "[host_memory]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      std::optional<std::uint64_t> free = device.free_memory();
      if (xgpu_test::is_pocl(device) || is_oclgrind(device)) {
        CHECK_FALSE(free.has_value());
      } else if (free) {
        CHECK(*free <= device.info().global_memory);
      }
    }
  }
}

// The stub device module (tests/modules/stub_backend) predates queue_barrier: a named
// unsupported error, never a call through a missing table member.
TEST_CASE("a module without queue_barrier says so", "[.stub_device]") {
  xgpu::Device stub;
  for (const xgpu::Device& device : xgpu::devices()) {
    if (device.info().backend == "stubdevice") stub = device;
  }
  REQUIRE(stub);
  xgpu::Context context(stub);
  xgpu::Queue queue = context.queue();
  check_error(capture_error([&] { queue.marker(); }), xgpu::Errc::unsupported, {"queue_barrier"});
  xgpu::Buffer<int> buffer = context.alloc<int>(4);
  xgpu::Event event = queue.fill(buffer, 7);
  check_error(capture_error([&] { queue.wait(event); }), xgpu::Errc::unsupported,
              {"queue_barrier"});
}
