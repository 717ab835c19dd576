// Seams of the kernel cache for the tests: functions a test program that links the core's
// objects (tests/cache/cache_client.cpp) installs, so that the stress tests
// (tests/cache/cache_stress_cases.py) stop a writer at a known point instead of hoping a kill
// lands there. Nothing in libxgpu installs them, and no variable switches them on.
#pragma once

#include <atomic>
#include <string>

namespace xgpu::detail {

struct CacheTestHooks {
  /// Called with an entry's temporary file and bytes before the store writes them.
  std::atomic<void (*)(int fd, const std::string& bytes)> before_entry_write{nullptr};
  /// Called between reading and rewriting the counters file.
  std::atomic<void (*)()> inside_counters_update{nullptr};
};

CacheTestHooks& cache_test_hooks();

/// Calls the before_entry_write hook, if one is installed.
void stall_mid_write_if_asked(int fd, const std::string& bytes);

/// Calls the inside_counters_update hook, if one is installed.
void delay_counters_update_if_asked();

}  // namespace xgpu::detail
