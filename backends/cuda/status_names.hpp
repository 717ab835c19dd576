// Symbolic names of the statuses this module returns: the table's status_name entry (it never
// throws), also used for error texts.
#pragma once

#include <cstdint>

namespace xgpu::backend_cuda {

/// "XGPU_STATUS_UNSUPPORTED" for a status the ABI reserves, the driver's cuGetErrorName()
/// for a CUresult once it is loaded, else cuda_status_table.def's name; "UNKNOWN" for any
/// other value.
const char* status_name(int32_t status);

}  // namespace xgpu::backend_cuda
