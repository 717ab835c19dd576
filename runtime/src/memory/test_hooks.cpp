// Test-only seam of the caching allocator; see test_hooks.hpp.
#include "test_hooks.hpp"

#include <cstdlib>
#include <cstring>

namespace xgpu::detail {

bool cross_queue_barrier_disabled_for_test() {
  const char* value = std::getenv("XGPU_MEMORY_TEST_NO_BARRIER");
  return value != nullptr && std::strcmp(value, "1") == 0;
}

}  // namespace xgpu::detail
