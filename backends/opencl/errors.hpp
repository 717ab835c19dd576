// The module's failure helpers: xgpu::common's guard, Failure and last error (see
// xgpu/common/errors.hpp), plus the two that speak OpenCL: fail_call() and check() name a
// failing CL call and its CL_* status.
#pragma once

#include <cstdint>

#include "xgpu/common/errors.hpp"

namespace xgpu::backend_opencl {

using common::fail;
using common::Failure;
using common::guard;
using common::last_error_text;
using common::set_last_error;

/// Records "function failed: CL_NAME" and throws Failure{status}.
[[noreturn]] void fail_call(int32_t status, const char* function);

/// Throws as fail_call() does unless status is CL_SUCCESS.
inline void check(int32_t status, const char* function) {
  if (status != 0) fail_call(status, function);
}

}  // namespace xgpu::backend_opencl
