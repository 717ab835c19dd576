// The one definition of each device trait; see device_traits.hpp.
#include "util/device_traits.hpp"

#include <limits>

#include "xgpu/common/device_kind.hpp"

namespace xgpu::detail {

common::DeviceKind device_kind(const DeviceInfo& info) {
  return {info.type, info.hardware_vendor, info.implementation};
}

}  // namespace xgpu::detail

namespace xgpu::ext {

// The rules are backends/common's, shared with the profile module's choice of a backing device.
bool is_simulator(const DeviceInfo& info) {
  return common::is_simulator(detail::device_kind(info));
}

bool is_cpu(const DeviceInfo& info) { return common::is_cpu(detail::device_kind(info)); }

bool is_gpu(const DeviceInfo& info) { return common::is_gpu(detail::device_kind(info)); }

bool shares_host_memory(const DeviceInfo& info) { return info.host_unified_memory || is_cpu(info); }

std::uint64_t free_local_memory(const Kernel& kernel, const DeviceInfo& device) {
  if (device.local_memory == 0) return std::numeric_limits<std::uint64_t>::max();
  const std::uint64_t declared = kernel.limits().local_memory;
  return device.local_memory > declared ? device.local_memory - declared : 0;
}

}  // namespace xgpu::ext
