// The core's side of the settings registry (backends/common/xgpu/common/settings.hpp): reading
// a word setting with the one message for a word it does not accept.
#pragma once

#include <string>

#include "xgpu/common/settings.hpp"

namespace xgpu::detail {

/// The setting's word, or "" while it is unset or empty. A word the setting does not allow
/// throws xgpu::Error (invalid_argument) from `call`, naming the variable, the allowed words
/// and the nearest one.
std::string read_word(common::Setting setting, const char* call);

}  // namespace xgpu::detail
