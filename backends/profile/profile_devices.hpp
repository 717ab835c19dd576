// The simulated devices: one per profile of XGPU_PROFILE, each backed by a real device of the
// inner module (XGPU_PROFILE_BACKING, default the first CPU device).
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "device_caps.hpp"
#include "profile_file.hpp"
#include "xgpu/backend.h"

namespace xgpu::profile {

struct ProfileDevice {
  ProfileFile file;
  xgpu_device backing = nullptr;
  DeviceCaps caps;          ///< as the profile states them, the backing's where it is silent
  DeviceCaps backing_caps;  ///< the real device's
  std::vector<std::string> inherited;  ///< fields the profile lacks, answered by the backing
  /// "this device (profile of NVIDIA H100)": how every refusal names the device.
  std::string label;

  std::mutex memory_mutex;
  std::uint64_t live_bytes = 0;  ///< sum of the live buffer_create() allocations
};

/// Reads XGPU_PROFILE and XGPU_PROFILE_BACKING and makes the devices. Throws common::Failure
/// naming the file and field of the first bad profile, or the backing selector that matches
/// nothing; then no profile device is offered (the inner module's own are unaffected).
void load_profiles();

std::size_t profile_count();
ProfileDevice& profile_at(std::size_t index);
/// The profile behind a device handle this module gave out; Failure for any other handle.
ProfileDevice& profile_of(xgpu_device device);

/// The profile names a profile list refers to: a path, or a bare shipped name.
std::string resolve_profile_path(const std::string& entry);

}  // namespace xgpu::profile
