// The limits and features a launch, an allocation or a build is checked against: once as the
// profile states them (with the backing device's values for what it omits), once as the
// backing device has them.
#pragma once

#include <cstdint>
#include <set>
#include <string>

#include "xgpu/backend.h"
#include "xgpu/common/drivers/version.hpp"

namespace xgpu::profile {

struct DeviceCaps {
  std::string name;
  std::string implementation;  ///< who wrote the driver: "pocl", ...
  std::string driver_version;  ///< its version, as the driver reports it
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
  /// The newest OpenCL C it compiles (drivers::newest_opencl_c); at least 1.0.
  drivers::Version language{1, 0};
};

/// What the inner module reports for one of its devices.
DeviceCaps read_backing_caps(xgpu_device device);

}  // namespace xgpu::profile
