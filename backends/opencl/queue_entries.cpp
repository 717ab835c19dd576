// Contexts and command queues.
#include <cctype>
#include <string>

#include "cl.hpp"
#include "clblast_lifetime.hpp"
#include "entries.hpp"
#include "errors.hpp"
#include "event_queue_refs.hpp"
#include "registry.hpp"
#include "serialized_call.hpp"
#include "tracked_queues.hpp"
#include "wait_list.hpp"
#include "xgpu/common/log.hpp"

namespace xgpu::backend_opencl {
namespace {

// One log line per report: Oclgrind, for one, sends a multi-line, newline-led text.
std::string one_line(const char* text) {
  std::string line;
  for (const char* c = text; *c != '\0'; ++c) {
    bool space = std::isspace(static_cast<unsigned char>(*c)) != 0;
    if (!space) {
      line += *c;
    } else if (!line.empty() && line.back() != ' ') {
      line += ' ';
    }
  }
  if (!line.empty() && line.back() == ' ') line.pop_back();
  return line;
}

// Drivers report asynchronous trouble (out of memory during a kernel, ...) only here. Runs on
// a driver thread: nothing may escape it.
void CL_CALLBACK context_notify(const char* error_info, const void*, size_t, void*) {
  try {
    std::string line = one_line(error_info != nullptr ? error_info : "");
    XGPU_LOG_WARNF("OpenCL context error: %s", line.c_str());
  } catch (...) {
    XGPU_LOG_WARNF("OpenCL context error (text dropped: out of memory)");
  }
}

}  // namespace

xgpu_status context_create(xgpu_device device, xgpu_context* context) {
  return guard_on(device, [&] {
    if (context == nullptr) fail(XGPU_STATUS_INVALID_VALUE, "context_create: context is NULL");
    DeviceRecord& record = registry_find(reinterpret_cast<cl_device_id>(device));
    cl_context_properties properties[] = {
        CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(record.platform), 0};
    cl_int status = CL_SUCCESS;
    cl_context created =
        clCreateContext(properties, 1, &record.device, context_notify, nullptr, &status);
    check(status, "clCreateContext");
    context_referenced(created);  // the caller's reference, counted for clblast_lifetime.cpp
    *context = reinterpret_cast<xgpu_context>(created);
    return XGPU_STATUS_SUCCESS;
  });
}

xgpu_status queue_create(xgpu_context context, xgpu_device device, uint32_t flags,
                         xgpu_queue* queue) {
  return guard_on(context, [&] {
    if (queue == nullptr) fail(XGPU_STATUS_INVALID_VALUE, "queue_create: queue is NULL");
    if ((flags & ~XGPU_QUEUE_PROFILING) != 0) {
      fail(XGPU_STATUS_INVALID_VALUE, "queue_create: unknown flags " + std::to_string(flags));
    }
    cl_command_queue_properties properties =
        (flags & XGPU_QUEUE_PROFILING) != 0 ? CL_QUEUE_PROFILING_ENABLE : 0;
    cl_int status = CL_SUCCESS;
    // clCreateCommandQueue, not ...WithProperties: the latter is 2.0 and 1.2 drivers lack it.
    cl_command_queue created =
        clCreateCommandQueue(reinterpret_cast<cl_context>(context),
                             reinterpret_cast<cl_device_id>(device), properties, &status);
    check(status, "clCreateCommandQueue");
    try {
      queue_referenced(created);  // the caller's reference, counted for tracked_queues.hpp
    } catch (...) {
      clReleaseCommandQueue(created);
      throw;
    }
    *queue = reinterpret_cast<xgpu_queue>(created);
    return XGPU_STATUS_SUCCESS;
  });
}

xgpu_status queue_flush(xgpu_queue queue) {
  return guard_on(queue, [&] {
    check(clFlush(reinterpret_cast<cl_command_queue>(queue)), "clFlush");
    return XGPU_STATUS_SUCCESS;
  });
}

xgpu_status queue_finish(xgpu_queue queue) {
  return guard_on(queue, [&] {
    check(clFinish(reinterpret_cast<cl_command_queue>(queue)), "clFinish");
    return XGPU_STATUS_SUCCESS;
  });
}

}  // namespace xgpu::backend_opencl

namespace xgpu::backend_opencl {

// clEnqueueBarrierWithWaitList (OpenCL 1.2): later commands wait for the list and for
// everything before; its event, when asked for, is the marker of that point.
xgpu_status queue_barrier(xgpu_queue queue, const xgpu_wait_v1* wait, xgpu_event* event) {
  return guard_on(queue, [&] {
    auto cl_q = reinterpret_cast<cl_command_queue>(queue);
    WaitList list(wait, event);
    // Drivers answer CL_INVALID_CONTEXT for a foreign event, or worse (some never check):
    // the module asks first, so the core can name the mistake.
    if (list.count != 0) {
      cl_context own = nullptr;
      check(clGetCommandQueueInfo(cl_q, CL_QUEUE_CONTEXT, sizeof(own), &own, nullptr),
            "clGetCommandQueueInfo");
      for (cl_uint i = 0; i < list.count; ++i) {
        cl_context theirs = nullptr;
        check(clGetEventInfo(list.events[i], CL_EVENT_CONTEXT, sizeof(theirs), &theirs, nullptr),
              "clGetEventInfo");
        if (theirs != own) {
          fail(XGPU_STATUS_INVALID_VALUE,
               "queue_barrier: event " + std::to_string(i) +
                   " belongs to another context than the queue's; OpenCL cannot wait across "
                   "contexts");
        }
        // OpenCL leaves waiting on an unflushed queue's command undefined (a driver may
        // never submit it): flush the event's own queue, so a wait cannot hang.
        cl_command_queue theirs_queue = nullptr;
        check(clGetEventInfo(list.events[i], CL_EVENT_COMMAND_QUEUE, sizeof(theirs_queue),
                             &theirs_queue, nullptr),
              "clGetEventInfo");
        if (theirs_queue != nullptr && theirs_queue != cl_q) {
          check(clFlush(theirs_queue), "clFlush");
        }
      }
    }
    check(clEnqueueBarrierWithWaitList(cl_q, list.count, list.events, list.event_out),
          "clEnqueueBarrierWithWaitList");
    hold_queue_for_event(cl_q, list.event_out);
    return XGPU_STATUS_SUCCESS;
  });
}

}  // namespace xgpu::backend_opencl
