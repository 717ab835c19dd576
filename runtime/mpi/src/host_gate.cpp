// The OpenCL user event behind HostGate (host_gate.hpp), reached through interop and the ICD
// loader's entry points, opened at run time so libxgpu-mpi links no OpenCL library.
#include "host_gate.hpp"

#include <atomic>
#include <mutex>
#include <xgpu/opencl.hpp>

#include "errors.hpp"
#include "xgpu/common/dynamic_library.hpp"

namespace xgpu::mpi::detail {
namespace {

struct OpenCl {
  cl_event (*create_user_event)(cl_context, cl_int*) = nullptr;
  cl_int (*set_user_event_status)(cl_event, cl_int) = nullptr;
  cl_int (*enqueue_barrier)(cl_command_queue, cl_uint, const cl_event*, cl_event*) = nullptr;
  cl_int (*release_event)(cl_event) = nullptr;
  bool loaded = false;
};

const OpenCl& opencl() {
  static const OpenCl kOpenCl = [] {
    OpenCl api;
    auto library = common::DynamicLibrary::open_path("libOpenCL.so.1");
    if (!library.loaded()) return api;
    api.create_user_event = library.function<decltype(api.create_user_event)>("clCreateUserEvent");
    api.set_user_event_status =
        library.function<decltype(api.set_user_event_status)>("clSetUserEventStatus");
    api.enqueue_barrier =
        library.function<decltype(api.enqueue_barrier)>("clEnqueueBarrierWithWaitList");
    api.release_event = library.function<decltype(api.release_event)>("clReleaseEvent");
    api.loaded = api.create_user_event && api.set_user_event_status && api.enqueue_barrier &&
                 api.release_event;
    return api;
  }();
  return kOpenCl;
}

// The barrier and the marker after it must be adjacent on the gate queue: a marker that also
// waited for a later gate could wait for a collective queued behind one it orders.
std::mutex g_enqueue_mutex;

}  // namespace

struct HostGate::State {
  cl_event user_event = nullptr;
  Event marker;
  std::atomic<bool> completed{false};

  // Always CL_COMPLETE, also for a failed collective: OpenCL lets a negative status fail the
  // commands waiting on the event, but PoCL (3.1) aborts the process on it
  // (pocl_update_event_failed: a pthread error on the user event's missing queue). The
  // collective's error goes to Request::wait() instead.
  void set(bool) {
    if (completed.exchange(true)) return;
    opencl().set_user_event_status(user_event, CL_COMPLETE);
  }
  ~State() {
    if (user_event == nullptr) return;
    set(false);  // never completed (the job could not run): no queue may wait forever
    opencl().release_event(user_event);
  }
};

HostGate HostGate::open(Queue& gates) {
  if (interop::backend(gates.device()) != "opencl" || !opencl().loaded) return HostGate();
  cl_int status = CL_SUCCESS;
  auto state = std::make_shared<State>();
  state->completed = true;  // nothing to complete until the event exists
  state->user_event = opencl().create_user_event(opencl::context(gates.context()), &status);
  if (status != CL_SUCCESS) {
    fail(Errc::backend, "clCreateUserEvent failed (" + std::to_string(status) + ")",
         "xgpu::mpi::iallreduce");
  }
  state->completed = false;
  std::lock_guard<std::mutex> lock(g_enqueue_mutex);
  status = opencl().enqueue_barrier(opencl::queue(gates), 1, &state->user_event, nullptr);
  if (status != CL_SUCCESS) {
    fail(Errc::backend, "clEnqueueBarrierWithWaitList failed (" + std::to_string(status) + ")",
         "xgpu::mpi::iallreduce");
  }
  state->marker = gates.marker();
  HostGate gate;
  gate.state_ = std::move(state);
  return gate;
}

const Event& HostGate::event() const {
  static const Event kNone;
  return state_ ? state_->marker : kNone;
}

void HostGate::complete(bool ok) const {
  if (state_) state_->set(ok);
}

}  // namespace xgpu::mpi::detail
