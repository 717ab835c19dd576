// The limits and features a launch, an allocation or a build is checked against: once as the
// profile states them (with the backing device's values for what it omits), once as the
// backing device has them.
#pragma once

#include <cstdint>
#include <set>
#include <string>

#include "xgpu/backend.h"

namespace xgpu::profile {

struct DeviceCaps {
  std::string name;
  std::string implementation;  ///< who wrote the driver: "pocl", ...
  std::uint64_t max_work_group_size = 0;
  std::uint64_t max_work_item_sizes[3] = {0, 0, 0};
  std::uint64_t local_memory = 0;
  std::uint64_t max_allocation = 0;
  std::uint64_t global_memory = 0;
  std::uint64_t max_parameter_size = 0;
  std::uint64_t max_constant_buffer = 0;  ///< 0: not reported, not checked
  bool fp16 = false;
  bool fp64 = false;
  bool images = false;
  bool non_uniform_work_groups = false;
  std::set<std::string> extensions;
  int language_major = 1;  ///< of "OpenCL C <major>.<minor>"
  int language_minor = 0;
};

/// What the inner module reports for one of its devices.
DeviceCaps read_backing_caps(xgpu_device device);

/// Whether version major.minor is below than_major.than_minor: compared part by part, since
/// major * 10 + minor overflows for a version a profile or a build option may write.
inline bool version_below(int major, int minor, int than_major, int than_minor) {
  return major != than_major ? major < than_major : minor < than_minor;
}

/// "OpenCL C 1.2 PoCL" -> {1, 2}; {0, 0} when the text has no version.
void parse_language_version(const std::string& text, int& major, int& minor);
/// An OpenCL 3.0 device ("OpenCL 3.0 CUDA") accepts -cl-std=CL3.0 although its
/// CL_DEVICE_OPENCL_C_VERSION, deprecated in 3.0, reports 1.2 (NVIDIA, Intel NEO, PoCL): the
/// 3.0 versions are in CL_DEVICE_OPENCL_C_ALL_VERSIONS, which the query schema does not hold.
void allow_opencl_c_3(const std::string& device_version, DeviceCaps& caps);

}  // namespace xgpu::profile
