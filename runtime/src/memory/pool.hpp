// detail::MemoryPool: one context's allocator. Caching (the default) keeps freed blocks of
// large driver buffers ("segments") for reuse; direct gives every buffer its own driver
// buffer. Both count the same statistics. docs/memory.md explains the design.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "../registry.hpp"
#include "allocation.hpp"
#include "xgpu/buffer.hpp"
#include "xgpu/handle.hpp"
#include "xgpu/memory.hpp"

namespace xgpu::detail {

struct Segment;

/// A piece of a segment: in use by one allocation, free, or freed while commands using it
/// may still run (pending).
struct Block {
  Segment* segment = nullptr;
  std::size_t offset = 0, size = 0;
  enum class State { free, used, pending } state = State::free;
  /// The sub-buffer last handed out for this block, kept for the next request of the same
  /// size and flags (creating one is most of a pooled allocation's cost).
  Handle<ObjectKind::buffer> view;
  std::size_t view_bytes = 0;
  std::uint32_t view_flags = 0;
  /// For State::pending: each queue that used it, with its marker at the free.
  std::vector<QueueUse> pending_on;
};

/// One driver buffer the pool carves blocks from.
struct Segment {
  Handle<ObjectKind::buffer> memory;
  std::size_t size = 0;
  bool small = false;  ///< serves requests up to kSmallRequest only
  std::map<std::size_t, std::unique_ptr<Block>> blocks;  ///< by offset, covering the segment
};

enum class AllocatorKind { caching, direct };

class MemoryPool : public std::enable_shared_from_this<MemoryPool> {
 public:
  /// Requests up to this size share 2 MiB slabs; larger ones get a segment of their own,
  /// rounded up to 2 MiB (docs/memory.md says why there is no 20 MiB mid-size segment).
  static constexpr std::size_t kSmallRequest = std::size_t{1} << 20;
  static constexpr std::size_t kSmallSegment = std::size_t{2} << 20;
  static constexpr std::size_t kMinBlock = 512;

  MemoryPool(const DeviceRecord* device, Handle<ObjectKind::context> context, AllocatorKind kind,
             std::uint64_t limit);
  ~MemoryPool();

  /// A buffer of `bytes` (> 0) with access `flags` (XGPU_MEM_*).
  BufferCore allocate(std::size_t bytes, std::uint32_t flags);
  /// Called by the last copy of a buffer (Allocation's destructor).
  void release(Allocation& allocation) noexcept;

  MemoryStats stats() const;
  void reset_peaks();
  void empty_cache();
  void set_limit(std::uint64_t bytes);
  AllocatorKind kind() const noexcept { return kind_; }

 private:
  bool caching() const noexcept { return kind_ == AllocatorKind::caching; }
  Handle<ObjectKind::buffer> driver_buffer(std::size_t bytes, std::uint32_t flags,
                                           xgpu_status& status);
  Block* take_block(std::size_t rounded, bool small);
  Block* take_pending_of_queue(std::size_t rounded, std::size_t largest, bool small,
                               const void* queue, std::vector<QueueUse>& uses);
  Block* grow(std::size_t request, std::size_t rounded, bool small);
  Block* new_segment(std::size_t segment_size, bool small, xgpu_status& status);
  void split(Block& block, std::size_t rounded, bool small);
  void make_free(Block& block);
  void settle_pending(bool wait);
  std::size_t release_free_segments();
  [[noreturn]] void out_of_memory(std::size_t request, xgpu_status driver_status);
  std::size_t alignment() const noexcept { return alignment_; }

  // The seam the trace hooks: one call each for an allocation, a free and a limit hit.
  void on_allocated(std::size_t bytes);
  void on_freed(std::size_t bytes);
  void on_limit_hit(std::size_t request);
  void add_reserved(std::size_t bytes);
  /// Tells the trace (when one runs) what is allocated and reserved now; under mutex_.
  void report_to_trace() const;

  const DeviceRecord* device_;
  Handle<ObjectKind::context> context_;
  const AllocatorKind kind_;
  std::size_t alignment_;

  mutable std::mutex mutex_;
  MemoryStats stats_;
  std::vector<std::unique_ptr<Segment>> segments_;
  /// Free blocks by (size, address) for best fit, small and large apart.
  std::set<std::pair<std::size_t, Block*>> free_small_, free_large_;
  std::vector<Block*> pending_;
};

/// XGPU_ALLOCATOR: caching (also when unset) or direct; anything else is invalid_argument.
AllocatorKind allocator_from_environment();
/// XGPU_MEMORY_LIMIT for a device of `device_memory` bytes: 0 when unset; a byte size
/// ("4G") or a fraction of the device's memory ("0.8"); invalid_argument otherwise.
std::uint64_t memory_limit_from_environment(std::uint64_t device_memory);
/// The same rule for any text, named `source` in the error.
std::uint64_t parse_memory_limit(const std::string& text, std::uint64_t device_memory,
                                 const char* source);

}  // namespace xgpu::detail
