// XGPU_ALLOCATOR and XGPU_MEMORY_LIMIT: read once per process (through the settings registry),
// applied to each context, refused with a named error at each context's creation.
#include <string>

#include "../settings.hpp"
#include "pool.hpp"

namespace xgpu::detail {

AllocatorKind allocator_from_environment() {
  return read_word(common::Setting::allocator, "Context") == "direct" ? AllocatorKind::direct
                                                                      : AllocatorKind::caching;
}

std::uint64_t memory_limit_from_environment(std::uint64_t device_memory) {
  const std::string text = common::setting_text(common::Setting::memory_limit);
  if (text.empty()) return 0;  // unset, or set empty: no limit, as for every setting
  return parse_memory_limit(text, device_memory, "XGPU_MEMORY_LIMIT");
}

}  // namespace xgpu::detail
