// Where the profiles shipped with xgpu (profiles/*.json, installed to share/xgpu/profiles) are
// found, so that XGPU_PROFILE=nvidia-h100 names one. One rule for the profile module and the
// core, which offers it to programs and the `xgpu` command (xgpu/profile.hpp); it sees neither
// a module nor a driver (built by backends/profile/files/).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace xgpu::common {

/// The folders searched, first wins: each folder of XGPU_PROFILE_DIR (':'-separated), then
/// the install's share/xgpu/profiles (found relative to the binary this code is linked into:
/// the profile module in lib/xgpu/, libxgpu in lib/), then the build tree's copy. Folders of
/// XGPU_PROFILE_DIR are listed whether or not they exist; the others only when they exist,
/// except that the install's folder is listed when nothing else is, so a message can say
/// where the profiles were expected.
std::vector<std::string> shipped_profile_dirs();

/// The file of the shipped profile `name` ("nvidia-h100" gives ".../nvidia-h100.json") in
/// the first folder that has it; nullopt when none has it, or when `name` is not a plain name
/// (letters, digits, '-', '_' and '.', not starting with '.').
std::optional<std::string> find_shipped_profile(const std::string& name);

/// Every shipped profile's name (its file name without ".json"), sorted, each once.
std::vector<std::string> shipped_profile_names();

}  // namespace xgpu::common
