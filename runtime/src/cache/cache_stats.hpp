// The process-wide counters behind xgpu::cache_stats(). Each is bumped where the cache
// decides what happened (build.cpp for hits and misses, store.cpp for what reaches the disk),
// from any thread, so they are atomics; relaxed order is enough for counters read as a
// snapshot.
#pragma once

#include <atomic>
#include <cstdint>

namespace xgpu::detail {

struct CacheCounters {
  std::atomic<std::uint64_t> hits{0};
  std::atomic<std::uint64_t> misses{0};
  std::atomic<std::uint64_t> stores{0};
  std::atomic<std::uint64_t> store_failures{0};
  std::atomic<std::uint64_t> bad_entries{0};
  std::atomic<std::uint64_t> healed{0};
  std::atomic<std::uint64_t> read_only_skips{0};
  std::atomic<std::uint64_t> evictions{0};
};

CacheCounters& cache_counters();

inline void count(std::atomic<std::uint64_t>& counter) {
  counter.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace xgpu::detail
