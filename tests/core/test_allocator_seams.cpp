// The allocator's paths that a working driver never takes, reached through the core's test
// seams (runtime/src/memory/test_hooks.hpp): white-box, in xgpu-core-tests, which links the
// core's objects and so can set a seam that nothing in libxgpu can.
#include <xgpu/opencl.hpp>

#include "core/slow_fill.hpp"
#include "memory/test_hooks.hpp"
#include "test_support.hpp"

namespace {

/// The seam set for one scope: this test's queues take the fallback.
class NoCrossQueueBarrier {
 public:
  NoCrossQueueBarrier() { xgpu::detail::cross_queue_barrier_disabled_for_test() = true; }
  ~NoCrossQueueBarrier() { xgpu::detail::cross_queue_barrier_disabled_for_test() = false; }
  NoCrossQueueBarrier(const NoCrossQueueBarrier&) = delete;
  NoCrossQueueBarrier& operator=(const NoCrossQueueBarrier&) = delete;
};

}  // namespace

// The fallback of the reuse at once: where the module cannot put a barrier on the other queue
// (queue_barrier absent, or refusing the wait list), the host waits for the previous user's
// commands before the new owner's first command there. The seam takes that path on a driver
// whose barrier works.
TEST_CASE("with no cross-queue barrier the host waits for the block's previous user",
          "[memory_no_barrier]") {
  NoCrossQueueBarrier seam;
  xgpu_test::on_each_pocl_device([&](xgpu::Context& context) {
    xgpu::Queue writer = context.queue();
    xgpu::Queue other = context.queue();
    xgpu::Kernel slow = context.build({"slow_fill.cl", xgpu_test::kSlowFill}).kernel("slow_fill");
    const std::size_t n = 256;
    // (Not the new buffer's native handle yet: asking for it waits for the previous user too.)
    auto [running, freed_handle, reserved, fresh] =
        xgpu_test::free_while_running(context, writer, slow, n);
    REQUIRE(context.memory_stats().reserved == reserved);  // no new memory: the pool reused it
    const xgpu::Event filled = other.fill(fresh, 2);       // asynchronous: returns at once...
    // ...but only once the host has waited for the kernel (a barrier would not block).
    CHECK(running.status() == xgpu::EventStatus::complete);
    filled.wait();
    CHECK(other.read(fresh) == std::vector<int>(n, 2));  // the kernel's 1s came before
    CHECK(xgpu::opencl::buffer(fresh) == freed_handle);  // it was the freed block
  });
}
