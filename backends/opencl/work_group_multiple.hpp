// The preferred work-group size multiple of a device. OpenCL 1.2 has no device query for
// it, only a per-kernel one, so the module asks about a trivial kernel once per device.
#pragma once

#include <cstdint>

#include "registry.hpp"

namespace xgpu::backend_opencl {

/// CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE of a trivial kernel; 1 when the probe
/// fails. Probed on first call, cached, thread-safe.
uint64_t work_group_multiple(DeviceRecord& record);

}  // namespace xgpu::backend_opencl
