// Reading the cache settings. A bad value is a warning and the default, never a failure:
// the cache must not stop a program from running.
#include "cache/settings.hpp"

#include <cstdlib>
#include <string>

#include "log.hpp"
#include "util/byte_size.hpp"
#include "xgpu/common/settings.hpp"
#include "xgpu/settings.hpp"

namespace xgpu::detail {
namespace {

const std::string* given(const std::optional<std::string>& value) {
  return value && !value->empty() ? &*value : nullptr;
}

std::optional<std::string> from_environment(const char* name) {
  const char* value = std::getenv(name);
  return value ? std::optional<std::string>(value) : std::nullopt;
}

}  // namespace

CacheEnvironment CacheEnvironment::current() {
  using common::Setting;
  return {common::read_setting(Setting::cache), common::read_setting(Setting::cache_dir),
          common::read_setting(Setting::cache_max_size), from_environment("XDG_CACHE_HOME"),
          from_environment("HOME")};
}

CacheSettings cache_settings(const CacheEnvironment& environment) {
  CacheSettings settings;
  if (const std::string* mode = given(environment.cache)) {
    if (*mode == "0" || *mode == "off") {
      settings.mode = CacheMode::off;
      settings.note = "off (XGPU_CACHE=" + *mode + ")";
    } else if (*mode == "ro") {
      settings.mode = CacheMode::read_only;
      settings.note = "read-only (XGPU_CACHE=ro)";
    } else if (*mode != "1" && *mode != "on") {
      logger("cache").warn("{}: using the default (1)",
                           check_setting("XGPU_CACHE", *mode)->message);
    }
  }
  if (const std::string* folder = given(environment.cache_dir)) {
    settings.folder = *folder;
  } else if (const std::string* xdg = given(environment.xdg_cache_home)) {
    settings.folder = *xdg + "/xgpu";
  } else if (const std::string* home = given(environment.home)) {
    settings.folder = *home + "/.cache/xgpu";
  } else if (settings.mode != CacheMode::off) {
    // Never a predictable shared folder such as /tmp/xgpu: another user could plant it.
    settings.mode = CacheMode::off;
    settings.note = "off: neither XGPU_CACHE_DIR, XDG_CACHE_HOME nor HOME is set";
  }
  if (const std::string* size = given(environment.cache_max_size)) {
    if (auto bytes = util::parse_byte_size(*size)) {
      settings.max_size = *bytes;
    } else {
      logger("cache").warn("XGPU_CACHE_MAX_SIZE={} is not a size such as 512M or 2G: using 1G",
                           *size);
    }
  }
  return settings;
}

}  // namespace xgpu::detail
