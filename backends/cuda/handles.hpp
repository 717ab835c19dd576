// The ABI's opaque handles and the module's objects: one checked conversion each way.
#pragma once

#include "errors.hpp"
#include "objects.hpp"
#include "xgpu/backend.h"

namespace xgpu::backend_cuda {

/// The object behind a handle; a NULL handle is refused with the argument's name.
template <class T, class Handle>
T& object_of(Handle handle, const char* what) {
  if (handle == nullptr) fail(XGPU_STATUS_INVALID_VALUE, std::string(what) + " is NULL");
  return *static_cast<T*>(reinterpret_cast<Object*>(handle));
}

inline Context& context_of(xgpu_context h) { return object_of<Context>(h, "context"); }
inline Queue& queue_of(xgpu_queue h) { return object_of<Queue>(h, "queue"); }
inline Buffer& buffer_of(xgpu_buffer h) { return object_of<Buffer>(h, "buffer"); }
inline Program& program_of(xgpu_program h) { return object_of<Program>(h, "program"); }
inline Kernel& kernel_of(xgpu_kernel h) { return object_of<Kernel>(h, "kernel"); }
inline Event& event_of(xgpu_event h) { return object_of<Event>(h, "event"); }

/// Handles always point at the Object base, so retain/release can take any kind.
template <class Handle, class T>
Handle handle_of(T* object) {
  return reinterpret_cast<Handle>(static_cast<Object*>(object));
}

}  // namespace xgpu::backend_cuda
