// xgpu's loggers: "xgpu", "xgpu.loader", "xgpu.cache", "xgpu.build", "xgpu.backend.<name>".
// Silent by default (warn); XGPU_LOG_LEVEL=trace|debug|info|warn|error|critical|off.
#pragma once

#include <string>
#include <xgpu/export.hpp>

namespace xgpu {

/// Sets the level of every xgpu logger, overriding XGPU_LOG_LEVEL. Throws
/// xgpu::Error (invalid_argument) for a name spdlog does not know.
XGPU_API void set_log_level(const std::string& level);

}  // namespace xgpu
