// Finding a shipped profile by name (XGPU_PROFILE=nvidia-h100). A minimal version for the
// profile module; the shipped profiles' own change replaces it.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace xgpu_profile {

/// The folders searched for shipped profiles, in order.
std::vector<std::string> shipped_profile_dirs();
/// The path of <dir>/<name>.json in the first folder that has it.
std::optional<std::string> find_shipped_profile(const std::string& name);

}  // namespace xgpu_profile
