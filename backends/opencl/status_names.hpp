// Symbolic names of the statuses this module returns, for status_name() and error texts.
#pragma once

#include <cstdint>

namespace xgpu::backend_opencl {

/// "CL_BUILD_PROGRAM_FAILURE" for -11, "XGPU_STATUS_UNSUPPORTED" for a status the ABI
/// reserves; "UNKNOWN" for any other value.
const char* status_name(int32_t status) noexcept;

}  // namespace xgpu::backend_opencl
