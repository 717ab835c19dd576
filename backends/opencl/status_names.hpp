// Symbolic names of the statuses this module returns: the table's status_name entry (it never
// throws), also used for error texts.
#pragma once

#include <cstdint>

namespace xgpu::backend_opencl {

/// "CL_BUILD_PROGRAM_FAILURE" for -11, "XGPU_STATUS_UNSUPPORTED" for a status the ABI
/// reserves; "UNKNOWN" for any other value.
const char* status_name(int32_t status);

}  // namespace xgpu::backend_opencl
