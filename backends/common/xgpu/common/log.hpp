// Logging through the callback the host gave at init(): a module must not link spdlog
// (each shared library would carry its own registry), so this is the only way out.
#pragma once

#include <cstdint>

#include "xgpu/backend.h"

namespace xgpu::common {

/// Keeps the host's callback; NULL or a too short struct silences the module.
void set_log_host(const xgpu_host_v1* host) noexcept;

/// printf-style message at an XGPU_LOG_* level. Never throws; safe from driver threads.
void log_printf(int32_t level, const char* format, ...) noexcept
    __attribute__((format(printf, 2, 3)));

}  // namespace xgpu::common

#define XGPU_LOG_DEBUGF(...) ::xgpu::common::log_printf(XGPU_LOG_DEBUG, __VA_ARGS__)
#define XGPU_LOG_WARNF(...) ::xgpu::common::log_printf(XGPU_LOG_WARN, __VA_ARGS__)
