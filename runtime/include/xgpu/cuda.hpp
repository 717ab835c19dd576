// Typed CUDA handles of xgpu objects on the cuda backend, for CUDA libraries (cuBLAS, cuDNN,
// PyTorch's from_blob, a kernel of your own): cublasSetStream(h, xgpu::cuda::stream(queue)),
// then pass xgpu::cuda::device_pointer(buffer). No CUDA header is needed: the types below are
// declared as cuda.h declares them, so they convert to and from the real ones unchanged
// (CUstream is a pointer to the same incomplete struct; CUdeviceptr is 64 bits everywhere).
// The context is the device's primary context, the one the CUDA runtime uses as well.
// Not yet run on a GPU: see docs/backends.md.
#pragma once

#include <cstdint>
#include <xgpu/error.hpp>
#include <xgpu/interop.hpp>

#ifndef __cuda_cuda_h__
// cuda.h's own declarations, repeated (identical redeclarations are allowed).
typedef unsigned long long CUdeviceptr;
typedef int CUdevice;
typedef struct CUctx_st* CUcontext;
typedef struct CUstream_st* CUstream;
typedef struct CUevent_st* CUevent;
#endif

namespace xgpu::cuda {

/// Throws xgpu::Error (invalid_argument) unless the device is on the cuda backend.
inline void require_cuda(const Device& device, const char* call) {
  if (interop::backend(device) != "cuda")
    throw Error(Errc::invalid_argument,
                std::string(call) + ": " + device.describe() + " is on the '" +
                    interop::backend(device) + "' backend, not cuda",
                call);
}

/// The CUdevice (the driver's ordinal).
inline CUdevice device(const Device& device) {
  require_cuda(device, "xgpu::cuda::device");
  return static_cast<CUdevice>(reinterpret_cast<std::uintptr_t>(interop::native(device)));
}
/// The device's primary context (retained by xgpu for as long as the Context lives).
inline CUcontext context(const Context& context) {
  require_cuda(context.device(), "xgpu::cuda::context");
  return static_cast<CUcontext>(interop::native(context));
}
/// The queue's stream: a non-blocking stream (CU_STREAM_NON_BLOCKING), so work on it is not
/// ordered with the legacy default stream; order it with events or a synchronize.
inline CUstream stream(const Queue& queue) {
  require_cuda(queue.device(), "xgpu::cuda::stream");
  return static_cast<CUstream>(interop::native(queue));
}
/// The event's completion CUevent (recorded on the queue's stream).
inline CUevent event(const Event& event) { return static_cast<CUevent>(interop::native(event)); }
/// The buffer's first byte; 0 for an empty buffer. With the caching allocator (the default)
/// it points inside a pooled allocation: use only [pointer, pointer + size in bytes). A view
/// (Buffer::view) gives its own first byte, wherever it starts.
template <class T>
CUdeviceptr device_pointer(const Buffer<T>& buffer) {
  std::size_t offset = 0;
  const auto base = reinterpret_cast<std::uintptr_t>(interop::native_at(buffer, offset));
  return base == 0 ? CUdeviceptr{0} : static_cast<CUdeviceptr>(base + offset);
}

}  // namespace xgpu::cuda
