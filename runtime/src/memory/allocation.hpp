// detail::Allocation: what every copy of a buffer shares with its context's allocator.
#pragma once

#include <memory>
#include <mutex>
#include <utility>
#include <vector>

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

  /// A command enqueued on `queue` with `event` reads or writes this buffer: the block may
  /// not go to another user before it completes. Only pooled blocks need it (see is_pooled).
  /// One event is kept per queue: a queue is in order, so its last command finishes after
  /// its earlier ones; commands of different queues may finish in any order.
  void note_use(const Module* module, const void* queue, void* event);
  /// The kept events, for the pool when the buffer goes.
  std::vector<Handle<ObjectKind::event>> take_uses();
  bool is_pooled() const noexcept { return block != nullptr; }

  std::shared_ptr<MemoryPool> pool;  ///< keeps the pool (and its slabs) alive
  Block* block;                      ///< nullptr for a buffer of its own (direct allocation)
  std::size_t bytes;

  std::mutex use_mutex;
  /// Under use_mutex: the last command of each queue that used the buffer.
  std::vector<std::pair<const void*, Handle<ObjectKind::event>>> last_uses;
};

/// Tells the allocation of each pooled buffer that the command of `event` uses it. Cheap
/// when none is pooled: one pointer test per buffer.
inline bool touches_pool(const BufferCore& buffer) noexcept {
  return buffer.allocation != nullptr && buffer.allocation->is_pooled();
}

}  // namespace xgpu::detail
