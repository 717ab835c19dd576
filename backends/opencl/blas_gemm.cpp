// Placeholder: blas_gemm through CLBlast, filled by the GEMM work of issue 6.
#include "entries.hpp"
#include "errors.hpp"

namespace xgpu::opencl {

xgpu_status blas_gemm(xgpu_queue, const xgpu_gemm_v1*, const xgpu_wait_v1*, xgpu_event*) {
  return XGPU_STATUS_UNSUPPORTED;
}

}  // namespace xgpu::opencl
