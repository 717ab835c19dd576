// Events: wait, status and profiling times. QUEUED and SUBMIT are the host's clock when the
// command was enqueued (a stream submits at once); START and END are the queue's epoch (host
// time of an event recorded at queue creation) plus cuEventElapsedTime since it, so all four
// lie on one nanosecond timeline, as OpenCL's do. The driver's resolution is about 0.5 us.
#include <cmath>

#include "driver.hpp"
#include "entries.hpp"
#include "errors.hpp"
#include "handles.hpp"

namespace xgpu::backend_cuda {
namespace {

uint64_t device_time_ns(const Event& event, CUevent point) {
  float milliseconds = 0;
  check(cu().cuEventElapsedTime(&milliseconds, event.queue->epoch, point), "cuEventElapsedTime");
  return event.queue->epoch_host_ns + static_cast<uint64_t>(std::llround(milliseconds * 1e6));
}

}  // namespace

xgpu_status event_wait(const xgpu_event* events, uint32_t count) {
  return guard([&] {
    if (count != 0 && events == nullptr) fail(XGPU_STATUS_INVALID_VALUE, "event_wait: NULL list");
    for (uint32_t i = 0; i < count; ++i) {
      Event& event = event_of(events[i]);
      ScopedContext scope(*event.context);
      check(cu().cuEventSynchronize(event.end), "cuEventSynchronize");
    }
    return XGPU_STATUS_SUCCESS;
  });
}

// CUDA tells done or not done; "not done" is reported as running. A failed command shows as
// the sticky error of its context, given negated (the ABI's failure convention).
xgpu_status event_status(xgpu_event event, int32_t* status) {
  return guard([&] {
    if (status == nullptr) fail(XGPU_STATUS_INVALID_VALUE, "event_status: NULL output");
    Event& e = event_of(event);
    ScopedContext scope(*e.context);
    CUresult result = cu().cuEventQuery(e.end);
    if (result == CUDA_SUCCESS) {
      *status = XGPU_EVENT_COMPLETE;
    } else if (result == CUDA_ERROR_NOT_READY) {
      *status = XGPU_EVENT_RUNNING;
    } else {
      *status = -result;
    }
    return XGPU_STATUS_SUCCESS;
  });
}

xgpu_status event_profile(xgpu_event event, uint32_t point, uint64_t* nanoseconds) {
  return guard([&] {
    if (nanoseconds == nullptr) fail(XGPU_STATUS_INVALID_VALUE, "event_profile: NULL output");
    Event& e = event_of(event);
    if (!e.queue.get() || !e.queue->profiling || e.start == nullptr) {
      fail(XGPU_STATUS_NOT_AVAILABLE, "profiling was not enabled on this event's queue");
    }
    ScopedContext scope(*e.context);
    switch (point) {
      case XGPU_PROFILE_QUEUED:
      case XGPU_PROFILE_SUBMIT:
        *nanoseconds = e.queued_host_ns;
        return XGPU_STATUS_SUCCESS;
      case XGPU_PROFILE_START:
        check(cu().cuEventSynchronize(e.end), "cuEventSynchronize");
        *nanoseconds = device_time_ns(e, e.start);
        return XGPU_STATUS_SUCCESS;
      case XGPU_PROFILE_END:
        check(cu().cuEventSynchronize(e.end), "cuEventSynchronize");
        *nanoseconds = device_time_ns(e, e.end);
        return XGPU_STATUS_SUCCESS;
    }
    fail(XGPU_STATUS_INVALID_VALUE, "unknown profiling point " + std::to_string(point));
  });
}

}  // namespace xgpu::backend_cuda
