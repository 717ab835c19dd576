// Numbers as people read them: sizes in KiB/MiB/GiB, clocks in MHz, flags as yes/no.
#pragma once

#include <cstdint>
#include <string>

namespace xgpu::cli {

/// "512 B", "32 KiB", "128 MiB", "3.72 GiB": the largest binary unit, two decimals at most.
std::string human_bytes(std::uint64_t bytes);

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
