// The backend's own handles behind xgpu objects, to hand them to libraries written for that
// API (CLBlast, Boost.Compute, clFFT, ...). For the opencl backend they are cl_device_id,
// cl_context, cl_command_queue, cl_mem and cl_event; xgpu/opencl.hpp gives them typed.
//
// The handles are borrowed: they stay valid while the xgpu object lives. A library that
// keeps one longer must retain it with the vendor API (Boost.Compute does so by default).
#pragma once

#include <cstdint>
#include <string>
#include <xgpu/buffer.hpp>
#include <xgpu/context.hpp>
#include <xgpu/device.hpp>
#include <xgpu/event.hpp>
#include <xgpu/export.hpp>
#include <xgpu/queue.hpp>

namespace xgpu::interop {

/// The name of the backend behind a device ("opencl").
XGPU_API const std::string& backend(const Device& device);

/// The name a backend gives one of its native statuses, as its module names it
/// ("CL_INVALID_VALUE" for -30 on opencl), for messages about calls made through these
/// handles; "UNKNOWN" for a status the module does not know. Throws xgpu::Error
/// (invalid_argument) when no module of that name is loaded.
XGPU_API std::string status_name(const std::string& backend, std::int32_t status);

/// Native handles. Throw xgpu::Error (unsupported) when the backend has no interop, and
/// (invalid_handle) for an empty object. An empty Buffer (0 elements) has no native object:
/// native() returns nullptr for it.
XGPU_API void* native(const Device& device);
XGPU_API void* native(const Context& context);
XGPU_API void* native(const Queue& queue);
XGPU_API void* native(const Event& event);
/// A view that is no sub-buffer of its own (Buffer::view off the device's base-address
/// alignment) has no native object: native() throws invalid_argument for it; native_at() gives
/// the object that holds it and the byte offset of its first element there.
XGPU_API void* native_buffer(const UntypedBuffer& buffer);
XGPU_API void* native_buffer_at(const UntypedBuffer& buffer, std::size_t& byte_offset);
template <class T>
void* native(const Buffer<T>& buffer) {
  return native_buffer(buffer.untyped());
}
template <class T>
void* native_at(const Buffer<T>& buffer, std::size_t& byte_offset) {
  return native_buffer_at(buffer.untyped(), byte_offset);
}

}  // namespace xgpu::interop
