// `xgpu conform --profile NAME`: the conformance suite on a simulated device (docs/profiles.md).
#pragma once

#include <string>
#include <vector>
#include <xgpu/device.hpp>

namespace xgpu::cli {

/// The file `profile` names: a shipped profile's name ("nvidia-h100", found as the profile
/// module finds it) or a path to a profile file. Throws Error(invalid_argument) naming the
/// shipped profiles when it is neither.
std::string resolve_profile(const std::string& profile);

/// Sets XGPU_PROFILE to `file` (replacing any earlier value) for the profile module to read.
/// Call before anything enumerates devices: the module reads it once per process.
void use_profile(const std::string& file);

/// The devices the profile module offers, after use_profile(). Throws Error(no_device) saying
/// why when there is none: no profile module, or one that refused the file (its message).
std::vector<Device> profile_devices(const std::string& file);

}  // namespace xgpu::cli
