// xgpu::cache_stats(): a snapshot of the process-wide counters (see cache_stats.hpp).
#include "cache/cache_stats.hpp"

#include "xgpu/cache.hpp"

namespace xgpu {
namespace detail {

CacheCounters& cache_counters() {
  static CacheCounters counters;  // atomics: trivially destroyed, usable until exit
  return counters;
}

}  // namespace detail

CacheStats cache_stats() {
  const detail::CacheCounters& counters = detail::cache_counters();
  auto read = [](const std::atomic<std::uint64_t>& counter) {
    return counter.load(std::memory_order_relaxed);
  };
  CacheStats stats;
  stats.hits = read(counters.hits);
  stats.misses = read(counters.misses);
  stats.stores = read(counters.stores);
  stats.store_failures = read(counters.store_failures);
  stats.bad_entries = read(counters.bad_entries);
  stats.healed = read(counters.healed);
  stats.read_only_skips = read(counters.read_only_skips);
  stats.evictions = read(counters.evictions);
  return stats;
}

}  // namespace xgpu
