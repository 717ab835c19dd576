// Formatting of sizes, clocks and ids for the human-readable views.
#include "units.hpp"

#include <array>
#include <cctype>
#include <cstdio>

namespace xgpu::cli {

std::string human_bytes(std::uint64_t bytes) {
  static constexpr std::array<const char*, 6> kUnits{"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  std::size_t unit = 0;
  double value = static_cast<double>(bytes);
  while (value >= 1024.0 && unit + 1 < kUnits.size()) {
    value /= 1024.0;
    ++unit;
  }
  char number[40];
  std::snprintf(number, sizeof number, unit == 0 ? "%.0f" : "%.2f", value);
  // "1.50" reads better as "1.5", and "2.00" as "2".
  std::string text = number;
  if (text.find('.') != std::string::npos) {
    while (text.back() == '0') text.pop_back();
    if (text.back() == '.') text.pop_back();
  }
  return text + ' ' + kUnits[unit];
}

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
