// device_info() of a profile device: the profile's field where it has one, the backing
// device's answer where it has none.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "xgpu/backend.h"

namespace xgpu::profile {

xgpu_status device_info(xgpu_device device, uint32_t property, void* value, size_t capacity,
                        size_t* size_ret);

/// The fields of the query schema `device` lacks (or has as null), which the backing device
/// answers.
std::vector<std::string> inherited_fields(const nlohmann::json& device);

}  // namespace xgpu::profile
