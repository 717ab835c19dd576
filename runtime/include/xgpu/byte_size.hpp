// Byte counts as people read them, for programs and the `xgpu` command: "32 KiB", "3.72 GiB".
// Reading sizes such as "512M" is xgpu::cache::parse_size (xgpu/cache.hpp).
#pragma once

#include <cstdint>
#include <string>

#include "xgpu/export.hpp"

namespace xgpu {

/// "0 B", "512 B", "32 KiB", "128 MiB", "3.72 GiB", "1.5 GiB": the largest binary unit (up
/// to EiB) in which the count is at least 1, rounded to two decimals, trailing zeros dropped.
XGPU_API std::string format_bytes(std::uint64_t bytes);

}  // namespace xgpu
