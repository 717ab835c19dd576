// xgpu::MemoryStats: what a context's allocator holds, in bytes and counts.
#pragma once

#include <cstdint>

namespace xgpu {

/// A snapshot of Context::memory_stats(). `allocated` is the bytes of live buffers as asked
/// for; `reserved` the bytes the driver holds for the context (live buffers, the caching
/// allocator's slabs and cached blocks). With XGPU_ALLOCATOR=direct, reserved == allocated.
struct MemoryStats {
  std::uint64_t allocated = 0;
  std::uint64_t reserved = 0;
  std::uint64_t peak_allocated = 0;  ///< since the context's creation or reset_peak_stats()
  std::uint64_t peak_reserved = 0;
  std::uint64_t active_blocks = 0;  ///< live buffers (an empty buffer is none)
  std::uint64_t num_allocs = 0;     ///< allocations that succeeded
  std::uint64_t num_frees = 0;
  std::uint64_t num_ooms = 0;     ///< out_of_memory errors thrown
  std::uint64_t num_retries = 0;  ///< allocations retried after returning the cache
  std::uint64_t limit = 0;        ///< the memory limit in bytes, 0 for none
};

}  // namespace xgpu
