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

  /// A command was enqueued on `queue` that reads or writes this buffer: the block may not go
  /// to another user before it completes. Only the queue is kept (retained the first time), no
  /// event: when the buffer goes, the pool asks each queue for a marker covering everything
  /// enqueued on it so far, which covers this buffer's last use there. Commands of different
  /// queues may finish in any order, hence one marker per queue. Only pooled blocks need it.
  void note_use(const Module* module, void* queue);
  /// The queues that used the buffer, for the pool when the buffer goes.
  std::vector<Handle<ObjectKind::queue>> take_queues();
  bool is_pooled() const noexcept { return block != nullptr; }

  std::shared_ptr<MemoryPool> pool;  ///< keeps the pool (and its slabs) alive
  Block* block;                      ///< nullptr for a buffer of its own (direct allocation)
  std::size_t bytes;

  std::mutex use_mutex;
  /// Under use_mutex: every queue that used the buffer (usually one).
  std::vector<Handle<ObjectKind::queue>> used_on;
};

/// Whether the allocation of `buffer` must be told of the commands that use it. Cheap when it
/// is not pooled: one pointer test.
inline bool touches_pool(const BufferCore& buffer) noexcept {
  return buffer.allocation != nullptr && buffer.allocation->is_pooled();
}

}  // namespace xgpu::detail
