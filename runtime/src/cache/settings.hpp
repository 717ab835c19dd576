// Where the kernel cache lives and how it may be used, from the environment:
// XGPU_CACHE (1, 0, ro), XGPU_CACHE_DIR, XDG_CACHE_HOME, HOME, XGPU_CACHE_MAX_SIZE.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace xgpu::detail {

enum class CacheMode { off, read_only, read_write };

struct CacheSettings {
  CacheMode mode = CacheMode::read_write;
  std::string folder;                   ///< empty when no folder could be named
  std::uint64_t max_size = 1ull << 30;  ///< bytes
  std::string note;                     ///< why the mode is what it is, for `xgpu cache`
};

/// The variables the settings come from; nullopt (or empty) when unset.
struct CacheEnvironment {
  std::optional<std::string> cache, cache_dir, cache_max_size, xdg_cache_home, home;
  /// This process's: the XGPU_* ones through the settings registry.
  static CacheEnvironment current();
};

CacheSettings cache_settings(const CacheEnvironment& environment);

}  // namespace xgpu::detail
