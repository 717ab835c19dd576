// retain, release and native_handle: the ABI handles are the cl_* handles themselves, so
// reference counting is OpenCL's own and the native handle is the handle.
#include <string>

#include "cl.hpp"
#include "clblast_lifetime.hpp"
#include "entries.hpp"
#include "errors.hpp"
#include "event_queue_refs.hpp"
#include "local_size_choice.hpp"
#include "serialized_call.hpp"
#include "tracked_queues.hpp"

namespace xgpu::backend_opencl {
namespace {

using RefCall = cl_int (*)(void* object);

struct ObjectKind {
  uint32_t kind;
  const char* retain_name;
  RefCall retain;
  const char* release_name;
  RefCall release;
};

// Root devices are not reference counted (clRetainDevice is a no-op on them), and the module
// only hands out root devices; skipping the call also keeps 1.1 drivers working.
cl_int no_op(void*) { return CL_SUCCESS; }

template <class Handle, cl_int(CL_API_CALL* kCall)(Handle)>
cl_int call_on(void* object) {
  return kCall(static_cast<Handle>(object));
}

constexpr ObjectKind kKinds[] = {
    {XGPU_OBJECT_DEVICE, "", no_op, "", no_op},
    {XGPU_OBJECT_CONTEXT, "clRetainContext", call_on<cl_context, clRetainContext>,
     "clReleaseContext", call_on<cl_context, clReleaseContext>},
    {XGPU_OBJECT_QUEUE, "clRetainCommandQueue", call_on<cl_command_queue, clRetainCommandQueue>,
     "clReleaseCommandQueue", call_on<cl_command_queue, clReleaseCommandQueue>},
    {XGPU_OBJECT_BUFFER, "clRetainMemObject", call_on<cl_mem, clRetainMemObject>,
     "clReleaseMemObject", call_on<cl_mem, clReleaseMemObject>},
    {XGPU_OBJECT_PROGRAM, "clRetainProgram", call_on<cl_program, clRetainProgram>,
     "clReleaseProgram", call_on<cl_program, clReleaseProgram>},
    {XGPU_OBJECT_KERNEL, "clRetainKernel", call_on<cl_kernel, clRetainKernel>, "clReleaseKernel",
     call_on<cl_kernel, clReleaseKernel>},
    {XGPU_OBJECT_EVENT, "clRetainEvent", call_on<cl_event, clRetainEvent>, "clReleaseEvent",
     call_on<cl_event, clReleaseEvent>},
};

const ObjectKind& kind_of(uint32_t kind) {
  for (const ObjectKind& entry : kKinds) {
    if (entry.kind == kind) return entry;
  }
  fail(XGPU_STATUS_INVALID_VALUE, "unknown object kind " + std::to_string(kind));
}

}  // namespace

// The kind is checked before the driver lock is considered: only a known kind's handle is
// an OpenCL object whose first word may be read.
xgpu_status retain(uint32_t object_kind, void* object) {
  return guard([&] {
    const ObjectKind& kind = kind_of(object_kind);
    SerializedCall serialized(object);
    check(kind.retain(object), kind.retain_name);
    if (object_kind == XGPU_OBJECT_EVENT) event_retained(static_cast<cl_event>(object));
    if (object_kind == XGPU_OBJECT_CONTEXT) context_referenced(static_cast<cl_context>(object));
    if (object_kind == XGPU_OBJECT_QUEUE) {
      try {
        queue_referenced(static_cast<cl_command_queue>(object));
      } catch (...) {
        kind.release(object);  // undone: a retain that fails takes no reference
        throw;
      }
    }
    return XGPU_STATUS_SUCCESS;
  });
}

xgpu_status release(uint32_t object_kind, void* object) {
  return guard([&] {
    const ObjectKind& kind = kind_of(object_kind);
    SerializedCall serialized(object);
    // Asked before the driver's release, which may free the event and its dispatch pointer.
    auto event = static_cast<cl_event>(object);
    bool held = object_kind == XGPU_OBJECT_EVENT && holds_queue_for(event);
    // The caller's last reference to a context: CLBlast's cached programs of it (and of
    // every context) go first, so that the context dies now rather than in CLBlast's exit
    // handler (clblast_lifetime.hpp).
    if (object_kind == XGPU_OBJECT_CONTEXT) context_unreferencing(static_cast<cl_context>(object));
    if (object_kind == XGPU_OBJECT_QUEUE) {
      queue_unreferencing(static_cast<cl_command_queue>(object));
    }
    check(kind.release(object), kind.release_name);
    if (object_kind == XGPU_OBJECT_KERNEL) kernel_handles_changed();  // its address may be reused
    if (held) event_released(event);
    return XGPU_STATUS_SUCCESS;
  });
}

xgpu_status native_handle(uint32_t object_kind, void* object, void** native) {
  return guard([&] {
    kind_of(object_kind);
    if (native == nullptr) fail(XGPU_STATUS_INVALID_VALUE, "native_handle: native is NULL");
    *native = object;
    return XGPU_STATUS_SUCCESS;
  });
}

}  // namespace xgpu::backend_opencl
