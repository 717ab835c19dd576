// Symbolic names of OpenCL and xgpu statuses, for status_name() and error texts.
#pragma once

#include <cstdint>

namespace xgpu::opencl {

/// "CL_BUILD_PROGRAM_FAILURE" for -11; "UNKNOWN" for a value not in cl_status_table.def.
const char* status_name(int32_t status) noexcept;

}  // namespace xgpu::opencl
