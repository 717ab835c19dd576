// Typed clGetDeviceInfo / clGetPlatformInfo helpers; a failing query throws Failure.
#pragma once

#include <string>
#include <vector>

#include "cl.hpp"

namespace xgpu::backend_opencl {

std::string device_string(cl_device_id device, cl_device_info param);
std::string platform_string(cl_platform_id platform, cl_platform_info param);

/// The raw bytes of a device property whose size the driver decides.
std::vector<unsigned char> device_bytes(cl_device_id device, cl_device_info param);

/// Throws Failure naming clGetDeviceInfo unless status is CL_SUCCESS.
void check_device_info(cl_int status);

template <class T>
T device_scalar(cl_device_id device, cl_device_info param) {
  T value{};
  check_device_info(clGetDeviceInfo(device, param, sizeof(T), &value, nullptr));
  return value;
}

/// Whole-word membership in a space-separated extension list (drivers pad with spaces).
bool has_extension(const std::string& extensions, const char* name);

}  // namespace xgpu::backend_opencl
