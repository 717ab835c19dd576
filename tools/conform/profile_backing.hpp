// What a profile device (backends/profile, docs/profiles.md) says about the real device under
// it. A profile reports another device's properties, but its kernels are built and run by the
// backing device: a deviation of the backing's math, or a feature the profile claims and the
// backing lacks, is the backing's, and a check says so instead of failing the profile.
#pragma once

#include <string>
#include <xgpu/xgpu.hpp>

namespace xgpu::conform {

/// A vendor extra's value ("" when absent).
inline std::string vendor_extra(const DeviceInfo& info, const std::string& key) {
  for (const auto& [name, value] : info.vendor_extras)
    if (name == key) return value;
  return {};
}

/// Who wrote the driver that computes: the backing device's implementation under a profile,
/// the device's own otherwise. Known driver deviations are keyed by it.
inline std::string computing_implementation(const DeviceInfo& info) {
  const std::string backing = vendor_extra(info, "profile_backing_implementation");
  return backing.empty() ? info.implementation : backing;
}

/// The driver version of that driver: the backing device's under a profile.
inline std::string computing_driver_version(const DeviceInfo& info) {
  return vendor_extra(info, "profile_backing_implementation").empty()
             ? info.driver_version
             : vendor_extra(info, "profile_backing_driver_version");
}

/// Why a feature the profile claims cannot be checked ("cl_khr_fp16 is in the profile but the
/// backing device (NAME) lacks it"), or empty. `feature`: an extension name or
/// non_uniform_work_groups, as the profile module lists them in profile_backing_lacks.
inline std::string backing_lacks(const DeviceInfo& info, const std::string& feature) {
  const std::string lacks = "," + vendor_extra(info, "profile_backing_lacks") + ",";
  if (lacks.find("," + feature + ",") == std::string::npos) return {};
  return feature + " is in the profile but the backing device (" +
         vendor_extra(info, "profile_backing") + ") lacks it";
}

}  // namespace xgpu::conform
