// Test-only seams of the kernel cache, switched on by environment variables that no user
// sets. They let the stress tests (tests/cache/cache_stress_cases.py) stop a writer at a
// known point instead of hoping a kill lands there.
#pragma once

#include <string>

namespace xgpu::detail {

/// With XGPU_CACHE_TEST_STALL_WRITE=1: writes the first half of `bytes` to `fd` (an entry's
/// temporary file), flushes it, and then waits forever, for the test to kill the process
/// in the middle of a write. Otherwise does nothing.
void stall_mid_write_if_asked(int fd, const std::string& bytes);

/// With XGPU_CACHE_TEST_COUNTERS_DELAY_MS=N: sleeps N ms between reading and rewriting the
/// counters file, so that concurrent processes surely overlap there and an update lost
/// without the lock would show. Otherwise does nothing.
void delay_counters_update_if_asked();

}  // namespace xgpu::detail
