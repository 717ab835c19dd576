// What the cache suite concludes from xgpu::cache_stats(): the counters' changes around each
// step of a check, judged against what the cache's mode promises. The judging is a pure
// function, so tests can feed it what a broken cache would show (tests/conform/
// test_broken_cache.cpp); the steps are run by the functions below, which take a hook
// between the two builds for the same reason.
#pragma once

#include <functional>
#include <string>
#include <xgpu/cache.hpp>

#include "check.hpp"

namespace xgpu::conform {

/// "1 hit, 0 misses, 2 stores" (only the counters that are not zero, or "nothing").
std::string describe(const CacheStats& delta);

/// The counters' changes around the steps of one check on a source no cache has seen.
struct CacheUse {
  CacheStats first_build;   ///< the first build, in a context of its own
  CacheStats saved;         ///< from the first build to the end of cache::flush()
  CacheStats second_build;  ///< the second build of the same source, in a new context
};

/// Read-write: a miss, a store, then a hit. Read-only: a miss, no store, a miss again. Off: no
/// counter moves (a skip saying so). `note` is cache::Status::note, for the messages.
Result judge_cache_use(const std::string& mode, const std::string& note, const CacheUse& seen);

/// The rebuild over an entry corrupted on disk: one bad entry, deleted (healed), a miss and
/// no hit; then saved again.
Result judge_healing(const CacheStats& rebuild, const CacheStats& saved);

/// The cache/hit_is_bit_identical check, with `between_builds` run after the first program is
/// saved and before the second build (a no-op in the suite; tests use it to break the cache).
Result check_hit_is_bit_identical(Env& env, const std::function<void()>& between_builds);

}  // namespace xgpu::conform
