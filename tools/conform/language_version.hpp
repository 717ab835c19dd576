// Which OpenCL C a device compiles, for the checks of built-ins and features that OpenCL C
// 2.0 added (ctz, non-uniform work-groups, sub-groups): the version as 100 * major + 10 *
// minor, and the -cl-std option that asks for it.
#pragma once

#include <cstdio>
#include <string>
#include <xgpu/xgpu.hpp>

namespace xgpu::conform {

// "OpenCL C 1.2 PoCL" -> 120; "OpenCL 3.0 ..." -> 300; 0 when the text holds no version.
inline int version_number(const std::string& text, const char* prefix) {
  const std::size_t at = text.find(prefix);
  int major = 0, minor = 0;
  if (at == std::string::npos ||
      std::sscanf(text.c_str() + at + std::char_traits<char>::length(prefix), "%d.%d", &major,
                  &minor) != 2)
    return 0;
  return 100 * major + 10 * minor;
}

// The newest OpenCL C the device compiles. An OpenCL 3.0 device reports 1.2 in
// CL_DEVICE_OPENCL_C_VERSION (the newest version fully compatible with 1.x) yet compiles
// OpenCL C 3.0 with -cl-std=CL3.0, whose core holds the 2.0 built-ins used here (ctz).
inline int opencl_c_version(const DeviceInfo& info) {
  const int language = version_number(info.language_version, "OpenCL C ");
  const int device = version_number(info.device_version, "OpenCL ");
  return device >= 300 && language < 300 ? 300 : language;
}

// "-cl-std=CL2.0" for 200; empty below 2.0 (the default language of the device).
inline std::string cl_std_option(int version) {
  if (version < 200) return {};
  return "-cl-std=CL" + std::to_string(version / 100) + "." + std::to_string(version / 10 % 10);
}

}  // namespace xgpu::conform
