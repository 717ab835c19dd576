// Reading the cache settings. A bad value is a warning and the default, never a failure:
// the cache must not stop a program from running.
#include "cache/settings.hpp"

#include <cstdlib>
#include <string>

#include "log.hpp"
#include "util/byte_size.hpp"

namespace xgpu::detail {
namespace {

const char* environment(const char* name) {
  const char* value = std::getenv(name);
  return value && *value ? value : nullptr;
}

}  // namespace

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
    if (auto bytes = util::parse_byte_size(size)) {
      settings.max_size = *bytes;
    } else {
      logger("cache").warn("XGPU_CACHE_MAX_SIZE={} is not a size such as 512M or 2G: using 1G",
                           size);
    }
  }
  return settings;
}

}  // namespace xgpu::detail
