// The ABI's wait list and event out-parameter, as the (count, cl_event*, cl_event*) triple
// every clEnqueue* call takes. xgpu_event handles are cl_event handles.
#pragma once

#include "cl.hpp"
#include "xgpu/backend.h"

namespace xgpu::backend_opencl {

struct WaitList {
  cl_uint count = 0;
  const cl_event* events = nullptr;
  cl_event* event_out = nullptr;  // NULL: the caller wants no event

  // A NULL or empty list waits on nothing; OpenCL wants (0, NULL) then, not (0, pointer).
  WaitList(const xgpu_wait_v1* wait, xgpu_event* event)
      : event_out(reinterpret_cast<cl_event*>(event)) {
    if (wait != nullptr && wait->count != 0) {
      count = wait->count;
      events = reinterpret_cast<const cl_event*>(wait->events);
    }
  }
};

}  // namespace xgpu::backend_opencl
