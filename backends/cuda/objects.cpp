// Reference counting and the destructors that give driver objects back (see objects.hpp).
#include "objects.hpp"

#include <chrono>

#include "driver.hpp"
#include "errors.hpp"
#include "status_names.hpp"
#include "xgpu/common/log.hpp"

namespace xgpu::backend_cuda {
namespace {

// Destructors cannot throw; a failed release is a leak worth a line in the log.
void release_call(CUresult status, const char* call) noexcept {
  if (status != CUDA_SUCCESS) XGPU_LOG_WARNF("cuda: %s failed: %s", call, status_name(status));
}

}  // namespace

void retain_object(Object* object) noexcept { object->references.fetch_add(1); }

void release_object(Object* object) noexcept {
  if (object->references.fetch_sub(1) == 1) delete object;
}

uint64_t host_now_ns() {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                   std::chrono::steady_clock::now().time_since_epoch())
                                   .count());
}

ScopedContext::ScopedContext(const Context& context) {
  CUresult status = cu().cuCtxPushCurrent(context.context);
  if (status != CUDA_SUCCESS) {
    // The constructor is the only place that can say the context is unusable.
    std::string text = std::string("cuCtxPushCurrent failed: ") + status_name(status);
    fail(status, text);
  }
}

ScopedContext::~ScopedContext() {
  CUcontext popped = nullptr;
  release_call(cu().cuCtxPopCurrent(&popped), "cuCtxPopCurrent");
}

Context::~Context() {
  if (context == nullptr) return;  // the retain failed
  if (blas_handle != nullptr && blas_destroy != nullptr) {
    cu().cuCtxPushCurrent(context);
    blas_destroy(blas_handle);
    CUcontext popped = nullptr;
    cu().cuCtxPopCurrent(&popped);
  }
  release_call(cu().cuDevicePrimaryCtxRelease(device->device), "cuDevicePrimaryCtxRelease");
}

Queue::~Queue() {
  if (stream == nullptr) return;
  if (cu().cuCtxPushCurrent(context->context) != CUDA_SUCCESS) return;
  // OpenCL lets a queue's commands finish after its release; a stream destroyed with work
  // pending does the same, but the events recorded on it must stay valid, so wait.
  release_call(cu().cuStreamSynchronize(stream), "cuStreamSynchronize");
  if (epoch != nullptr) release_call(cu().cuEventDestroy(epoch), "cuEventDestroy");
  release_call(cu().cuStreamDestroy(stream), "cuStreamDestroy");
  CUcontext popped = nullptr;
  cu().cuCtxPopCurrent(&popped);
}

Buffer::~Buffer() {
  if (cu().cuCtxPushCurrent(context->context) != CUDA_SUCCESS) return;
  for (auto& [host, mapping] : maps) release_call(cu().cuMemFreeHost(host), "cuMemFreeHost");
  // cuMemFree waits for pending work on the memory (it synchronizes the device).
  if (!parent.get() && pointer != 0) release_call(cu().cuMemFree(pointer), "cuMemFree");
  CUcontext popped = nullptr;
  cu().cuCtxPopCurrent(&popped);
}

Event::~Event() {
  if (cu().cuCtxPushCurrent(context->context) != CUDA_SUCCESS) return;
  if (start != nullptr) release_call(cu().cuEventDestroy(start), "cuEventDestroy");
  if (end != nullptr) release_call(cu().cuEventDestroy(end), "cuEventDestroy");
  CUcontext popped = nullptr;
  cu().cuCtxPopCurrent(&popped);
}

Program::~Program() {
  if (module == nullptr) return;
  if (cu().cuCtxPushCurrent(context->context) != CUDA_SUCCESS) return;
  release_call(cu().cuModuleUnload(module), "cuModuleUnload");
  CUcontext popped = nullptr;
  cu().cuCtxPopCurrent(&popped);
}

}  // namespace xgpu::backend_cuda
