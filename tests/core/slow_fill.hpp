// What the allocator's tests of reuse share (core/test_allocator.cpp, and the white-box
// core/test_allocator_seams.cpp): a kernel that runs for a while, and a block freed under it.
#pragma once

#include <cstdint>
#include <xgpu/opencl.hpp>

#include "test_support.hpp"

namespace xgpu_test {

// A kernel that runs long enough (the tests pass 3,000,000 rounds, and REQUIRE it still runs)
// for a test to free its buffer and allocate again while it still writes.
inline constexpr const char* kSlowFill = R"(
    kernel void slow_fill(global int* out, int rounds) {
      int i = (int)get_global_id(0);
      uint x = (uint)i;
      for (int r = 0; r < rounds; ++r) x = x * 1103515245u + 12345u;
      out[i] = (x == 42u) ? 3 : 1;
    })";

/// Runs `body` on a context of each PoCL device, each in its own section (Oclgrind would take
/// minutes over kSlowFill), and checks that it ran where PoCL is present: a loop over no
/// device asserts nothing.
template <class Body>
void on_each_pocl_device(Body&& body) {
  xgpu_test::for_each_pocl_device([&](const xgpu::Device& device) {
    xgpu::Context context(device);
    body(context);
  });
}

/// A block freed while kSlowFill still writes it on `queue`, and the next block of the same
/// size: this thread's last queue was `queue`, so the pool hands the freed block out at once.
struct FreedWhileRunning {
  xgpu::Event running;            ///< the kernel, still pending (REQUIREd)
  cl_mem freed_handle = nullptr;  ///< the freed block's native handle
  std::uint64_t reserved = 0;     ///< the pool's reserved bytes before the new allocation
  xgpu::Buffer<int> fresh;        ///< the new allocation
};

inline FreedWhileRunning free_while_running(xgpu::Context& context, xgpu::Queue& queue,
                                            const xgpu::Kernel& slow, std::size_t n) {
  FreedWhileRunning result;
  {
    xgpu::Buffer<int> doomed = context.alloc<int>(n);
    result.freed_handle = xgpu::opencl::buffer(doomed);
    result.running = queue.launch(slow, xgpu::Range{n}, doomed, 3000000);
    queue.flush();
  }  // freed while the kernel runs
  result.reserved = context.memory_stats().reserved;
  result.fresh = context.alloc<int>(n);
  REQUIRE(result.running.status() != xgpu::EventStatus::complete);
  return result;
}

}  // namespace xgpu_test
