// Formatting of sizes, clocks and ids for the human-readable views.
#include "units.hpp"

#include <cstdio>

#include "xgpu/common/drivers/version.hpp"

namespace xgpu::cli {

std::string gib_column(std::uint64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", static_cast<double>(bytes) / (1024.0 * 1024 * 1024));
  return text;
}

std::string human_mhz(std::uint32_t mhz) {
  if (mhz == 0) return "unknown";
  return std::to_string(mhz) + " MHz";
}

std::string hex32(std::uint32_t value) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%04X", value);
  return text;
}

std::string language_version_number(const std::string& language_version) {
  const drivers::Version version = drivers::opencl_c_version(language_version);
  return version.empty() ? language_version : version.text();
}

}  // namespace xgpu::cli
