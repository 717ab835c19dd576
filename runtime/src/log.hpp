// The library's named spdlog loggers. Never spdlog's default logger: an application that
// uses spdlog itself keeps its own configuration.
#pragma once

#include <spdlog/spdlog.h>

#include <string>

namespace xgpu::detail {

/// The logger "xgpu" or "xgpu.<suffix>" ("loader", "build", "backend.opencl", ...),
/// created on first use at the level of XGPU_LOG_LEVEL (default warn).
spdlog::logger& logger(const std::string& suffix = {});

/// The host's log callback handed to modules (xgpu_host_v1::log); `user` is the Module.
extern "C" void module_log_callback(void* user, int32_t level, const char* message);

}  // namespace xgpu::detail
