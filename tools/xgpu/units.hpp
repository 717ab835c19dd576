// Numbers as people read them: a GiB table column, clocks in MHz, flags as yes/no.
#pragma once

#include <cstdint>
#include <string>

// Sizes in bytes ("3.72 GiB") are xgpu::format_bytes, shared with the library's messages.
#include <xgpu/byte_size.hpp>

namespace xgpu::cli {

/// Gibibytes with one decimal and no unit, for a table column headed "GiB": "3.7".
std::string gib_column(std::uint64_t bytes);

/// "2299 MHz"; "unknown" for 0, which drivers report when they do not know.
std::string human_mhz(std::uint32_t mhz);

/// "0x8086".
std::string hex32(std::uint32_t value);

inline const char* yes_no(bool value) { return value ? "yes" : "no"; }

/// The version number in an OpenCL C version string: "OpenCL C 1.2 PoCL" gives "1.2". The
/// whole string when it has no such number.
std::string language_version_number(const std::string& language_version);

}  // namespace xgpu::cli
