// Formatting of sizes, clocks and ids for the human-readable views.
#include "units.hpp"

#include <cctype>
#include <cstdio>

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
  const std::string prefix = "OpenCL C ";
  if (language_version.compare(0, prefix.size(), prefix) != 0) return language_version;
  std::size_t end = prefix.size();
  while (end < language_version.size() &&
         (std::isdigit(static_cast<unsigned char>(language_version[end])) ||
          language_version[end] == '.')) {
    ++end;
  }
  if (end == prefix.size()) return language_version;
  return language_version.substr(prefix.size(), end - prefix.size());
}

}  // namespace xgpu::cli
