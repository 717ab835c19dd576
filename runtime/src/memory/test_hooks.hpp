// A seam of the caching allocator for the white-box tests (xgpu-core-tests links the core's
// objects and sets it); nothing in libxgpu sets it, and no variable switches it on.
#pragma once

#include <atomic>

namespace xgpu::detail {

/// When true, a block reused at once by another queue is ordered after its previous user by
/// the host waiting, as when the module's queue_barrier is absent or refuses the wait list
/// (Allocation::order_after_previous_user), so that the tests reach that fallback on drivers
/// that have a working barrier.
std::atomic<bool>& cross_queue_barrier_disabled_for_test();

}  // namespace xgpu::detail
