// Seams of the kernel cache for the tests; see test_hooks.hpp.
#include "cache/test_hooks.hpp"

namespace xgpu::detail {

CacheTestHooks& cache_test_hooks() {
  static CacheTestHooks hooks;
  return hooks;
}

void stall_mid_write_if_asked(int fd, const std::string& bytes) {
  if (auto hook = cache_test_hooks().before_entry_write.load()) hook(fd, bytes);
}

void delay_counters_update_if_asked() {
  if (auto hook = cache_test_hooks().inside_counters_update.load()) hook();
}

}  // namespace xgpu::detail
