// The shared kernel cache, for tools and tests: where it is, what it holds, and upkeep.
// Programs use it without asking: Context::build looks there first.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>
#include <xgpu/export.hpp>

namespace xgpu {

/// What the kernel cache did in this process so far. Every counter only grows; compare two
/// snapshots to see what a piece of code did. Entries are written by a background thread:
/// call cache::flush() first to count the pending ones in `stores`.
struct CacheStats {
  std::uint64_t hits = 0;    ///< programs loaded from the cache instead of being compiled
  std::uint64_t misses = 0;  ///< programs compiled although the cache was readable
  std::uint64_t stores = 0;  ///< entries written
  /// entries that could not be written (disk full, read-only filesystem, linked folder)
  std::uint64_t store_failures = 0;
  /// entries found truncated, corrupt, of another key, or refused by the driver
  std::uint64_t bad_entries = 0;
  std::uint64_t healed = 0;  ///< of those, the ones deleted, so that a rebuild replaces them
  /// programs compiled and not saved because the cache is read-only
  std::uint64_t read_only_skips = 0;
  std::uint64_t evictions = 0;  ///< entries deleted to keep the cache under its size cap
};
namespace cache {

/// The cache as this process sees it (settings from XGPU_CACHE, XGPU_CACHE_DIR, ...).
struct Status {
  std::string folder;
  std::string mode;  ///< "read-write", "read-only" or "off"
  std::string note;  ///< why it is read-only or off, when it is
  std::uint64_t max_size = 0;
  std::uint64_t size = 0;  ///< bytes of every entry
  std::size_t entries = 0;
  /// What every process that used this folder read-write recorded (<folder>/counters): each
  /// adds its counts when it calls flush() or exits, so a running process's own are not in
  /// yet. XGPU_CACHE=ro and =0 record nothing. Reset by clear() without a selector.
  CacheStats recorded;
  std::int64_t recorded_since = 0;  ///< seconds since the epoch; 0: nothing recorded yet
  std::string recorded_problem;     ///< why the counters file could not be read, when so
};
XGPU_API Status status();

struct Entry {
  std::string hash, path;
  std::string device, driver, platform, source, options, kernels;
  std::uint64_t size = 0;
  std::int64_t last_use = 0;  ///< seconds since the epoch
  bool valid = true;
  std::string problem;  ///< why the entry is bad, when it is
};
/// Every entry, least recently used first, read and checked.
XGPU_API std::vector<Entry> list();

struct VerifyReport {
  std::size_t checked = 0;
  std::vector<Entry> removed;  ///< bad entries (with the problem), deleted
};
/// Checks every entry and deletes the bad ones (when the cache is writable).
XGPU_API VerifyReport verify();

struct PruneReport {
  std::vector<Entry> removed;
  std::uint64_t size_after = 0;
};
/// Deletes least recently used entries until the cache holds at most max_size bytes.
XGPU_API PruneReport prune(std::uint64_t max_size);

/// Deletes every entry, or with a selector only the entries made for the devices it
/// selects (same device name and driver version). Returns how many were deleted. Without a
/// selector it also starts the recorded counters (Status::recorded) again from zero; with
/// one they are kept, as they are not kept per device.
XGPU_API std::size_t clear(std::string_view device_selector = {});

/// "512M", "2G", "1.5G", "1048576" in bytes; throws xgpu::Error (invalid_argument).
XGPU_API std::uint64_t parse_size(std::string_view text);

/// Writes every entry this process still has pending (normally done at exit), and adds what
/// this process counted since its last flush to the folder's recorded counters.
XGPU_API void flush();

}  // namespace cache

/// The counters of the process's kernel cache; thread-safe. All zero with XGPU_CACHE=0.
XGPU_API CacheStats cache_stats();

/// What happened between two snapshots of cache_stats(): `after - before`, counter by counter.
inline CacheStats operator-(const CacheStats& after, const CacheStats& before) {
  CacheStats d;
  d.hits = after.hits - before.hits;
  d.misses = after.misses - before.misses;
  d.stores = after.stores - before.stores;
  d.store_failures = after.store_failures - before.store_failures;
  d.bad_entries = after.bad_entries - before.bad_entries;
  d.healed = after.healed - before.healed;
  d.read_only_skips = after.read_only_skips - before.read_only_skips;
  d.evictions = after.evictions - before.evictions;
  return d;
}

}  // namespace xgpu
