// Which OpenCL C a device compiles, for the checks of built-ins and features that OpenCL C
// 2.0 added (ctz, non-uniform work-groups, sub-groups), and its OpenCL version: read with the
// one version parser (xgpu/common/drivers/version.hpp), whose newest_opencl_c() holds the rule
// that an OpenCL 3.0 device reporting OpenCL C 1.2 compiles 3.0 when asked.
#pragma once

#include <xgpu/xgpu.hpp>

#include "xgpu/common/drivers/version.hpp"

namespace xgpu::conform {

using drivers::cl_std_option;
using drivers::Version;

/// The newest OpenCL C the device compiles with -cl-std (cl_std_option() asks for it).
inline Version opencl_c_version(const DeviceInfo& info) {
  return drivers::newest_opencl_c(info.language_version, info.device_version);
}

/// The device's OpenCL version (CL_DEVICE_VERSION).
inline Version opencl_version(const DeviceInfo& info) {
  return drivers::opencl_version(info.device_version);
}

}  // namespace xgpu::conform
