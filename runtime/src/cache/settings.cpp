// Reading the cache settings. A bad value is a warning and the default, never a failure:
// the cache must not stop a program from running.
#include "cache/settings.hpp"

#include <cstdlib>
#include <string>

#include "log.hpp"

namespace xgpu::detail {
namespace {

const char* environment(const char* name) {
  const char* value = std::getenv(name);
  return value && *value ? value : nullptr;
}

}  // namespace

std::optional<std::uint64_t> parse_size(std::string_view text) {
  std::string value(text);
  if (value.empty()) return std::nullopt;
  char* end = nullptr;
  double number = std::strtod(value.c_str(), &end);
  if (end == value.c_str() || !(number >= 0)) return std::nullopt;
  std::string suffix(end);
  if (suffix.size() > 1 && (suffix.back() == 'B' || suffix.back() == 'b')) suffix.pop_back();
  if (suffix.size() == 2 && suffix[1] == 'i') suffix.pop_back();
  double scale = 1;
  if (suffix == "K" || suffix == "k")
    scale = 1024.0;
  else if (suffix == "M" || suffix == "m")
    scale = 1024.0 * 1024;
  else if (suffix == "G" || suffix == "g")
    scale = 1024.0 * 1024 * 1024;
  else if (suffix == "T" || suffix == "t")
    scale = 1024.0 * 1024 * 1024 * 1024;
  else if (!suffix.empty() && suffix != "B" && suffix != "b")
    return std::nullopt;
  double bytes = number * scale;
  if (bytes > 9.0e18) return std::nullopt;
  return static_cast<std::uint64_t>(bytes);
}

CacheSettings cache_settings_from_environment() {
  CacheSettings settings;
  if (const char* mode = environment("XGPU_CACHE")) {
    std::string text(mode);
    if (text == "0" || text == "off") {
      settings.mode = CacheMode::off;
      settings.note = "off (XGPU_CACHE=" + text + ")";
    } else if (text == "ro") {
      settings.mode = CacheMode::read_only;
      settings.note = "read-only (XGPU_CACHE=ro)";
    } else if (text != "1" && text != "on") {
      logger("cache").warn("XGPU_CACHE={} is not 1, 0 or ro: using the default (1)", text);
    }
  }
  if (const char* folder = environment("XGPU_CACHE_DIR")) {
    settings.folder = folder;
  } else if (const char* xdg = environment("XDG_CACHE_HOME")) {
    settings.folder = std::string(xdg) + "/xgpu";
  } else if (const char* home = environment("HOME")) {
    settings.folder = std::string(home) + "/.cache/xgpu";
  } else if (settings.mode != CacheMode::off) {
    // Never a predictable shared folder such as /tmp/xgpu: another user could plant it.
    settings.mode = CacheMode::off;
    settings.note = "off: neither XGPU_CACHE_DIR, XDG_CACHE_HOME nor HOME is set";
  }
  if (const char* size = environment("XGPU_CACHE_MAX_SIZE")) {
    if (auto bytes = parse_size(size)) {
      settings.max_size = *bytes;
    } else {
      logger("cache").warn("XGPU_CACHE_MAX_SIZE={} is not a size such as 512M or 2G: using 1G",
                           size);
    }
  }
  return settings;
}

}  // namespace xgpu::detail
