// Every property of a device as labelled, humanised text in groups, for `xgpu query -d`.
#pragma once

#include <string>
#include <vector>
#include <xgpu/device.hpp>

namespace xgpu::cli {

struct Property {
  std::string key;    ///< the DeviceInfo field it shows; query_errors uses the same names
  std::string label;  ///< "Global memory"
  std::string value;  ///< "3.72 GiB (3996813312 bytes)", or the error when the query failed
  bool failed = false;
};

struct PropertyGroup {
  std::string title;  ///< identity, compute, memory, precision, extensions, vendor extras
  std::vector<Property> properties;
};

/// The groups in display order; index is the device's position in xgpu::devices(). A property
/// listed in DeviceInfo::query_errors shows its error instead of its value; errors for properties
/// no group shows get a group of their own.
/// `free_memory`: what the driver reports free now (Device::free_memory), if anything.
std::vector<PropertyGroup> device_properties(const DeviceInfo& info, std::size_t index,
                                             std::optional<std::uint64_t> free_memory = {});

}  // namespace xgpu::cli
