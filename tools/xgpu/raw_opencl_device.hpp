// The raw OpenCL side of a benchmark (bench dispatch, bench cache's raw child) finds the device
// xgpu measures through the C API alone, by platform name and device name.
#pragma once

#define CL_TARGET_OPENCL_VERSION 120
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>

#include <string>

namespace xgpu::cli {

/// The device named `device_name` on the platform named `platform_name`; throws
/// std::runtime_error naming both when there is none.
cl_device_id raw_opencl_device(const std::string& platform_name, const std::string& device_name);

}  // namespace xgpu::cli
