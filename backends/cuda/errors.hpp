// The module's failure helpers: xgpu::common's guard, Failure and last error, plus check(),
// which names a failing driver call and its CUresult (CUDA_ERROR_OUT_OF_MEMORY ...).
#pragma once

#include "cuda_driver_api.hpp"
#include "xgpu/common/errors.hpp"

namespace xgpu::backend_cuda {

using common::fail;
using common::Failure;
using common::guard;
using common::last_error_text;

/// Records "call failed: CUDA_ERROR_NAME (the driver's description)" and throws
/// Failure{status}.
[[noreturn]] void fail_call(CUresult status, const char* call);

/// Throws as fail_call() does unless status is CUDA_SUCCESS.
inline void check(CUresult status, const char* call) {
  if (status != CUDA_SUCCESS) fail_call(status, call);
}

}  // namespace xgpu::backend_cuda
