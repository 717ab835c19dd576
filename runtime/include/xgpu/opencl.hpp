// Typed OpenCL handles of xgpu objects on the opencl backend, for OpenCL libraries such as
// CLBlast: clblast::Gemm(..., xgpu::opencl::buffer(a), ..., &queue_handle). Include it only
// where the OpenCL headers are available; xgpu itself does not need them.
#pragma once

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#endif
#include <CL/cl.h>

#include <xgpu/error.hpp>
#include <xgpu/interop.hpp>

namespace xgpu::opencl {

/// Throws xgpu::Error (invalid_argument) unless the device is on the opencl backend.
inline void require_opencl(const Device& device, const char* call) {
  if (interop::backend(device) != "opencl")
    throw Error(Errc::invalid_argument,
                std::string(call) + ": " + device.describe() + " is on the '" +
                    interop::backend(device) + "' backend, not opencl",
                call);
}

inline cl_device_id device(const Device& device) {
  require_opencl(device, "xgpu::opencl::device");
  return static_cast<cl_device_id>(interop::native(device));
}
inline cl_context context(const Context& context) {
  require_opencl(context.device(), "xgpu::opencl::context");
  return static_cast<cl_context>(interop::native(context));
}
inline cl_command_queue queue(const Queue& queue) {
  require_opencl(queue.device(), "xgpu::opencl::queue");
  return static_cast<cl_command_queue>(interop::native(queue));
}
/// nullptr for an empty buffer, which has no cl_mem. With the caching allocator (the default)
/// it is a sub-buffer of a pooled segment, of which OpenCL allows no further sub-buffer
/// (docs/memory.md).
template <class T>
cl_mem buffer(const Buffer<T>& buffer) {
  return static_cast<cl_mem>(interop::native(buffer));
}

}  // namespace xgpu::opencl
