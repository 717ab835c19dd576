// Events: wait, execution status, profiling times.
#include <string>

#include "cl.hpp"
#include "entries.hpp"
#include "errors.hpp"
#include "serialized_call.hpp"

namespace xgpu::backend_opencl {
namespace {

// OpenCL's execution states are the ABI's, value for value; the status passes through as is
// (a negative one is the command's failure status).
static_assert(CL_COMPLETE == XGPU_EVENT_COMPLETE && CL_RUNNING == XGPU_EVENT_RUNNING &&
                  CL_SUBMITTED == XGPU_EVENT_SUBMITTED && CL_QUEUED == XGPU_EVENT_QUEUED,
              "OpenCL and xgpu event states differ");

struct ProfilePoint {
  uint32_t point;
  cl_profiling_info param;
};

constexpr ProfilePoint kProfilePoints[] = {
    {XGPU_PROFILE_QUEUED, CL_PROFILING_COMMAND_QUEUED},
    {XGPU_PROFILE_SUBMIT, CL_PROFILING_COMMAND_SUBMIT},
    {XGPU_PROFILE_START, CL_PROFILING_COMMAND_START},
    {XGPU_PROFILE_END, CL_PROFILING_COMMAND_END},
};

cl_event cl_ev(xgpu_event event) { return reinterpret_cast<cl_event>(event); }

// The ABI promises failure for an event of a queue made without profiling, as the
// specification says; some drivers (Oclgrind) hand out timestamps anyway, so the module asks
// the queue itself. Its queue is alive: the event keeps it (or, where a driver's events do
// not, the module does: retain_queue_for_events in known_drivers.def).
void require_profiling(cl_event event) {
  cl_command_queue queue = nullptr;
  check(clGetEventInfo(event, CL_EVENT_COMMAND_QUEUE, sizeof(queue), &queue, nullptr),
        "clGetEventInfo");
  if (queue == nullptr) {
    fail(CL_PROFILING_INFO_NOT_AVAILABLE, "a user event has no queue and no profiling times");
  }
  cl_command_queue_properties properties = 0;
  check(clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES, sizeof(properties), &properties, nullptr),
        "clGetCommandQueueInfo");
  if ((properties & CL_QUEUE_PROFILING_ENABLE) == 0) {
    fail(CL_PROFILING_INFO_NOT_AVAILABLE, "profiling was not enabled on this event's queue");
  }
}

}  // namespace

// clWaitForEvents reaches the driver of the first event.
xgpu_status event_wait(const xgpu_event* events, uint32_t count) {
  return guard_on(count != 0 && events != nullptr ? events[0] : nullptr, [&] {
    // Waiting on nothing is done; OpenCL would call it CL_INVALID_VALUE.
    if (count == 0) return XGPU_STATUS_SUCCESS;
    check(clWaitForEvents(count, reinterpret_cast<const cl_event*>(events)), "clWaitForEvents");
    return XGPU_STATUS_SUCCESS;
  });
}

xgpu_status event_status(xgpu_event event, int32_t* status) {
  return guard_on(event, [&] {
    if (status == nullptr) fail(XGPU_STATUS_INVALID_VALUE, "event_status: status is NULL");
    cl_int state = CL_COMPLETE;
    check(clGetEventInfo(cl_ev(event), CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(state), &state,
                         nullptr),
          "clGetEventInfo");
    *status = state;
    return XGPU_STATUS_SUCCESS;
  });
}

xgpu_status event_profile(xgpu_event event, uint32_t point, uint64_t* nanoseconds) {
  return guard_on(event, [&] {
    if (nanoseconds == nullptr) fail(XGPU_STATUS_INVALID_VALUE, "event_profile: NULL output");
    for (const ProfilePoint& entry : kProfilePoints) {
      if (entry.point != point) continue;
      require_profiling(cl_ev(event));
      cl_ulong time = 0;
      check(clGetEventProfilingInfo(cl_ev(event), entry.param, sizeof(time), &time, nullptr),
            "clGetEventProfilingInfo");
      *nanoseconds = time;
      return XGPU_STATUS_SUCCESS;
    }
    fail(XGPU_STATUS_INVALID_VALUE, "unknown profiling point " + std::to_string(point));
  });
}

}  // namespace xgpu::backend_opencl
