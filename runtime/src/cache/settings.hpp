// Where the kernel cache lives and how it may be used, from the environment:
// XGPU_CACHE (1, 0, ro), XGPU_CACHE_DIR, XDG_CACHE_HOME, HOME, XGPU_CACHE_MAX_SIZE.
#pragma once

#include <cstdint>
#include <string>

namespace xgpu::detail {

enum class CacheMode { off, read_only, read_write };

struct CacheSettings {
  CacheMode mode = CacheMode::read_write;
  std::string folder;                   ///< empty when no folder could be named
  std::uint64_t max_size = 1ull << 30;  ///< bytes
  std::string note;                     ///< why the mode is what it is, for `xgpu cache`
};

CacheSettings cache_settings_from_environment();

}  // namespace xgpu::detail
