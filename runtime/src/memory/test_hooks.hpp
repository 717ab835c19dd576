// Test-only seam of the caching allocator, switched on by an environment variable no user sets.
#pragma once

namespace xgpu::detail {

/// With XGPU_MEMORY_TEST_NO_BARRIER=1: a block reused at once by another queue is ordered after
/// its previous user by the host waiting, as when the module's queue_barrier is absent or
/// refuses the wait list (Allocation::order_after_previous_user), so that the tests reach that
/// fallback on drivers that have a working barrier. Read at each call (only a reused block's
/// first command on another queue asks); a test process gets it from its start (CTest's
/// unit.icd.memory_no_barrier), since setenv while other threads read the environment can
/// crash.
bool cross_queue_barrier_disabled_for_test();

}  // namespace xgpu::detail
