// device_info() of a profile device (entries.hpp): the profile's field where it has one, the
// backing device's answer where it has none.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "xgpu/backend.h"

namespace xgpu::profile {

/// The fields of the query schema `device` lacks (or has as null), which the backing device
/// answers.
std::vector<std::string> inherited_fields(const nlohmann::json& device);

}  // namespace xgpu::profile
