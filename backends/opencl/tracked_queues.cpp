// The queue record of finish_queues_before_binary; see tracked_queues.hpp.
#include "tracked_queues.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <vector>

#include "errors.hpp"

namespace xgpu::backend_opencl {
namespace {

struct Recorded {
  std::mutex mutex;
  std::unordered_map<cl_command_queue, uint32_t> caller_references;
};

// Never destroyed: the core releases queues after main() returns.
Recorded& recorded() {
  static Recorded* instance = new Recorded;
  return *instance;
}

// The ICD dispatch table every object of one driver begins with (quirk_platforms.hpp).
const void* dispatch_of(const void* handle) { return *static_cast<const void* const*>(handle); }

}  // namespace

namespace detail {

void count_queue_reference(cl_command_queue queue) {
  Recorded& r = recorded();
  std::lock_guard<std::mutex> lock(r.mutex);
  ++r.caller_references[queue];
}

void drop_queue_reference(cl_command_queue queue) {
  Recorded& r = recorded();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto found = r.caller_references.find(queue);
  if (found != r.caller_references.end() && --found->second == 0) {
    r.caller_references.erase(found);
  }
}

bool queues_drained_within(const void* handle, std::chrono::steady_clock::duration bound) {
  const auto deadline = std::chrono::steady_clock::now() + bound;
  // Retained under the record's lock, so that no queue dies while a marker goes on it: a
  // caller's last release leaves the record before it reaches the driver.
  std::vector<cl_command_queue> queues;
  {
    Recorded& r = recorded();
    std::lock_guard<std::mutex> lock(r.mutex);
    queues.reserve(r.caller_references.size());
    for (const auto& entry : r.caller_references) {
      if (dispatch_of(entry.first) != dispatch_of(handle)) continue;
      if (clRetainCommandQueue(entry.first) == CL_SUCCESS) queues.push_back(entry.first);
    }
  }
  // A marker with no wait list completes once everything enqueued before it on its queue has
  // (in-order or not). Every queue is flushed before any is waited for: a command waiting for
  // another queue's event cannot then wait for a command its driver was never given.
  std::vector<cl_event> markers;
  markers.reserve(queues.size());
  cl_int status = CL_SUCCESS;
  for (cl_command_queue queue : queues) {
    cl_event marker = nullptr;
    cl_int enqueued = clEnqueueMarkerWithWaitList(queue, 0, nullptr, &marker);
    if (enqueued == CL_SUCCESS) markers.push_back(marker);
    if (status == CL_SUCCESS) status = enqueued;
    cl_int flushed = clFlush(queue);
    if (status == CL_SUCCESS) status = flushed;
  }
  // Polled, not waited for (clWaitForEvents has no time-out); the pause grows from 50 us to
  // 2 ms, so a short wait costs little and a long one little CPU.
  bool drained = status == CL_SUCCESS;
  auto pause = std::chrono::microseconds(50);
  for (cl_event marker : markers) {
    while (drained) {
      cl_int execution = CL_QUEUED;
      cl_int queried = clGetEventInfo(marker, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(execution),
                                      &execution, nullptr);
      if (queried != CL_SUCCESS) {
        status = queried;
        drained = false;
      } else if (execution == CL_COMPLETE) {
        break;  // everything before it on its queue has ended
      } else if (execution < 0) {
        // Failed, maybe because a command it follows failed (a user event set to an error)
        // while an earlier one still runs: that says nothing of the queue being idle.
        drained = false;
      } else if (std::chrono::steady_clock::now() >= deadline) {
        drained = false;
      } else {
        std::this_thread::sleep_for(pause);
        pause = std::min<std::chrono::microseconds>(pause * 2, std::chrono::milliseconds(2));
      }
    }
  }
  for (cl_event marker : markers) clReleaseEvent(marker);
  for (cl_command_queue queue : queues) clReleaseCommandQueue(queue);
  check(status, "waiting for the queues to drain (before fetching a program binary)");
  return drained;
}

std::chrono::milliseconds drain_give_up() {
#ifdef XGPU_OPENCL_DRAIN_GIVE_UP_MS
  // The tests' copy of the module (backends/opencl/CMakeLists.txt): a test of giving up takes
  // half a second, not ten.
  return std::chrono::milliseconds(XGPU_OPENCL_DRAIN_GIVE_UP_MS);
#else
  return std::chrono::milliseconds(kDrainGiveUp);
#endif
}

}  // namespace detail
}  // namespace xgpu::backend_opencl
