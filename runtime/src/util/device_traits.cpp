// The one definition of each device trait; see device_traits.hpp.
#include "util/device_traits.hpp"

#include <limits>

namespace xgpu::ext {

// Oclgrind says its silicon is a "simulator" (device_info.cpp reads the hardware vendor the
// module reports) and declares every device type at once.
bool is_simulator(const DeviceInfo& info) { return info.hardware_vendor == "simulator"; }

bool is_cpu(const DeviceInfo& info) {
  return (info.type & DeviceType::cpu) != 0 && (info.type & DeviceType::gpu) == 0 &&
         !is_simulator(info);
}

bool is_gpu(const DeviceInfo& info) {
  return (info.type & DeviceType::gpu) != 0 && !is_simulator(info);
}

bool shares_host_memory(const DeviceInfo& info) { return info.host_unified_memory || is_cpu(info); }

std::uint64_t free_local_memory(const Kernel& kernel, const DeviceInfo& device) {
  if (device.local_memory == 0) return std::numeric_limits<std::uint64_t>::max();
  const std::uint64_t declared = kernel.limits().local_memory;
  return device.local_memory > declared ? device.local_memory - declared : 0;
}

}  // namespace xgpu::ext
