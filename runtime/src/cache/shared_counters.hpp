// What the kernel cache did across processes: <folder>/counters, a few lines of text that
// every process using the folder read-write adds its own counts to, once, when it flushes
// (xgpu::cache::flush()) or exits, never per hit: a warm start pays nothing, and a process
// that did nothing touches no file.
//
//   xgpu cache counters 1
//   since 1764600000        when counting started (creation, or `xgpu cache clear`)
//   hits 12
//   misses 3
//   ...
//
// An update holds an exclusive flock on the file for its read-add-write, so concurrent
// processes lose no count. A file that does not parse (damaged, or a crash in mid-write)
// is replaced, with a warning, by one holding only the new counts.
//
// Recorded only by a read-write cache: XGPU_CACHE=ro promises that the process changes
// nothing in the folder (it may be someone else's, or on a read-only mount), and XGPU_CACHE=0
// or a folder refused for safety use no folder at all.
#pragma once

#include <cstdint>
#include <string>

#include "xgpu/cache.hpp"

namespace xgpu::detail {

struct SharedCounters {
  CacheStats totals;
  std::int64_t since = 0;  ///< seconds since the epoch; 0 when nothing was recorded yet
  std::string problem;     ///< why the file could not be read, when it could not
};

/// Reads <folder>/counters; all zero (and no problem) when it does not exist.
SharedCounters read_shared_counters(const std::string& folder);
/// Adds `delta` to <folder>/counters under an exclusive lock, creating (0600) or replacing a
/// damaged file. False, with a debug line, when the file cannot be written.
bool add_shared_counters(const std::string& folder, const CacheStats& delta);
/// Starts counting again from zero (xgpu cache clear).
bool reset_shared_counters(const std::string& folder);

/// Adds what this process counted since its last call to the folder's counters, when the
/// cache is read-write and something happened. Thread-safe; called at flush and at exit.
void record_process_counters();

}  // namespace xgpu::detail
