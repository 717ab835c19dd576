// QueueGate: holds back an xgpu queue's commands behind an OpenCL user event, through interop,
// so that a test knows a command is still pending. Shared by the memory pool's and the kernel
// cache's tests.
#pragma once

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <thread>
#include <xgpu/opencl.hpp>

namespace xgpu_test {

// A user event placed (behind xgpu's back) at the head of a queue: nothing enqueued after it
// starts until open(). A slow kernel alone is not enough to keep a command pending: PoCL runs
// another queue's commands on the same worker threads, so finishing that queue can wait for the
// kernel to end. A watchdog opens the gate after `watchdog`, so a wait on it fails a test,
// never hangs.
class QueueGate {
 public:
  QueueGate(const xgpu::Context& context, const xgpu::Queue& queue,
            std::chrono::milliseconds watchdog = std::chrono::seconds(10)) {
    cl_int status = CL_SUCCESS;
    gate_ = clCreateUserEvent(xgpu::opencl::context(context), &status);
    REQUIRE(status == CL_SUCCESS);
    const cl_int barrier =
        clEnqueueBarrierWithWaitList(xgpu::opencl::queue(queue), 1, &gate_, nullptr);
    if (barrier != CL_SUCCESS) clReleaseEvent(gate_);  // the destructor will not run
    REQUIRE(barrier == CL_SUCCESS);
    watchdog_ = std::thread([this, watchdog] {
      const auto deadline = std::chrono::steady_clock::now() + watchdog;
      while (!opened_.load() && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      }
      open();
    });
  }
  QueueGate(const QueueGate&) = delete;
  QueueGate& operator=(const QueueGate&) = delete;
  ~QueueGate() {
    open();
    watchdog_.join();
    clReleaseEvent(gate_);
  }
  void open() {
    if (!opened_.exchange(true)) clSetUserEventStatus(gate_, CL_COMPLETE);
  }

 private:
  cl_event gate_ = nullptr;
  std::atomic<bool> opened_{false};
  std::thread watchdog_;
};

}  // namespace xgpu_test
