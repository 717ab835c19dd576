// A seam of the caching allocator for the white-box tests; see test_hooks.hpp.
#include "test_hooks.hpp"

namespace xgpu::detail {

std::atomic<bool>& cross_queue_barrier_disabled_for_test() {
  static std::atomic<bool> disabled{false};
  return disabled;
}

}  // namespace xgpu::detail
