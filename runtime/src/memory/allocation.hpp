// detail::Allocation: what every copy of a buffer shares with its context's allocator.
#pragma once

#include <memory>
#include <mutex>

#include "xgpu/buffer.hpp"
#include "xgpu/handle.hpp"

namespace xgpu::detail {

class MemoryPool;
struct Block;

struct Allocation {
  Allocation(std::shared_ptr<MemoryPool> owner, Block* pooled, std::size_t size)
      : pool(std::move(owner)), block(pooled), bytes(size) {}
  Allocation(const Allocation&) = delete;
  Allocation& operator=(const Allocation&) = delete;
  /// The last copy of the buffer went: the pool takes the memory back (or counts the free).
  ~Allocation();

  /// A command enqueued with `event` reads or writes this buffer: the block may not go to
  /// another user before it completes. Only pooled blocks need it (see is_pooled).
  void note_use(const Module* module, void* event);
  bool is_pooled() const noexcept { return block != nullptr; }

  std::shared_ptr<MemoryPool> pool;  ///< keeps the pool (and its slabs) alive
  Block* block;                      ///< nullptr for a buffer of its own (direct allocation)
  std::size_t bytes;

  std::mutex use_mutex;
  Handle<ObjectKind::event> last_use;  ///< under use_mutex
};

/// Tells the allocation of each pooled buffer that the command of `event` uses it. Cheap
/// when none is pooled: one pointer test per buffer.
inline bool touches_pool(const BufferCore& buffer) noexcept {
  return buffer.allocation != nullptr && buffer.allocation->is_pooled();
}

}  // namespace xgpu::detail
