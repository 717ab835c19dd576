// `xgpu query --profiles`: the shipped device profiles (profiles/*.json), found by the same
// rule as the profile module (libxgpu's xgpu::find_shipped_profile, xgpu/profile.hpp).
#pragma once

#include <ostream>

#include "color.hpp"

namespace xgpu::cli {

/// Lists every shipped profile: name, device, vendor, file, and the source it was written
/// from; as JSON (docs/query-json.md, "Profiles") when `json`. Opens no device. Returns 0, or
/// 1 when a profile file cannot be read (it is listed with the reason).
int print_profiles(std::ostream& out, bool json, const Style& style);

}  // namespace xgpu::cli
