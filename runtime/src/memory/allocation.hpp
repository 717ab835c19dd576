// detail::Allocation: what every copy of a buffer shares with its context's allocator.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "xgpu/buffer.hpp"
#include "xgpu/handle.hpp"

namespace xgpu::detail {

class MemoryPool;
struct Block;
struct Module;

/// A queue that used a block, and an event completing once everything enqueued on that queue
/// up to the block's free has: when the marker completes, that queue is done with the block.
struct QueueUse {
  Handle<ObjectKind::queue> queue;
  Handle<ObjectKind::event> marker;
};

struct Allocation {
  Allocation(std::shared_ptr<MemoryPool> owner, Block* pooled, std::size_t size,
             std::uint32_t access_flags)
      : pool(std::move(owner)), block(pooled), bytes(size), access(access_flags) {}
  Allocation(const Allocation&) = delete;
  Allocation& operator=(const Allocation&) = delete;
  /// The last copy of the buffer went: the pool takes the memory back (or counts the free).
  ~Allocation();

  /// A command was enqueued on `queue` that reads or writes this buffer: a pooled block may
  /// not go to another user before it completes, and a copy to another context must come
  /// after it (queues_in_use). Only the queue is kept (retained the first time), no event: when
  /// the buffer goes, the pool asks each queue for a marker covering everything enqueued on it
  /// so far, which covers this buffer's last use there. Commands of different queues may
  /// finish in any order, hence one marker per queue.
  void note_use(const Module* module, void* queue);
  /// The queues that used the buffer, for the pool when the buffer goes.
  std::vector<Handle<ObjectKind::queue>> take_queues();
  /// The queues that used the buffer so far (retained copies), for a copy that must come after
  /// every command enqueued on it.
  std::vector<Handle<ObjectKind::queue>> queues_in_use();
  bool is_pooled() const noexcept { return block != nullptr; }

  /// Whether the block came from a previous user whose commands may still run (the pool hands
  /// out such a block at once to the queue that used it: docs/memory.md, "Reuse at once").
  bool follows_previous_user() const noexcept {
    return follows_previous_.load(std::memory_order_acquire);
  }
  /// Before a command on `queue` uses the buffer: `queue` waits, on the device, for the
  /// previous user's commands on every other queue (a barrier; a command of the same queue
  /// comes after them anyway, queues being in order).
  void order_after_previous_user(const Module* module, void* queue);
  /// Before the host or another API touches the buffer (a native handle): waits for the
  /// previous user's commands on the host.
  void wait_for_previous_user();
  /// For the pool when the buffer goes: what of the previous user may still run.
  std::vector<QueueUse> take_previous_uses();
  /// For the pool when it hands out a block freed with `uses` pending.
  void set_previous_uses(std::vector<QueueUse> uses);

  /// The driver buffer a sub-buffer of this allocation is made from, and where the
  /// allocation's first byte is in it: the pooled block's segment, or the buffer of its own.
  /// Views (Buffer::view) are sub-buffers of it, never of another sub-buffer (OpenCL has none).
  void* root(std::size_t& base) const noexcept;

  std::shared_ptr<MemoryPool> pool;  ///< keeps the pool (and its slabs) alive
  Block* block;                      ///< nullptr for a buffer of its own (direct allocation)
  std::size_t bytes;
  std::uint32_t access;  ///< XGPU_MEM_READ_ONLY / WRITE_ONLY bits, which its views share
  /// A direct allocation's driver buffer (a pooled one's is its block's segment).
  Handle<ObjectKind::buffer> own;

  std::mutex use_mutex;
  /// Under use_mutex: every queue that used the buffer (usually one).
  std::vector<Handle<ObjectKind::queue>> used_on;

 private:
  /// used_on's first queue, read without the lock: a launch on it (the common case) notes
  /// nothing new. It stays retained in used_on until take_queues(), so the address cannot be
  /// another queue's.
  std::atomic<const void*> first_queue_{nullptr};
  std::atomic<bool> follows_previous_{false};
  /// Under use_mutex: the previous user's queues whose markers had not completed when the
  /// block was handed out, and the queues already ordered after them.
  std::vector<QueueUse> previous_;
  std::vector<Handle<ObjectKind::queue>> ordered_;
};

/// An event that completes when every command enqueued on `queue` so far has (submitted, so
/// polling it finds it complete); empty when the module has no queue_barrier, after waiting
/// for the queue on the host instead.
Handle<ObjectKind::event> marker_of(const Handle<ObjectKind::queue>& queue);

/// Whether the allocation of `buffer` must be told of the commands that use it: every buffer
/// xgpu allocated, pooled (the pool reuses its block after them) or not (a copy to another
/// context orders after them). One pointer test.
inline bool touches_pool(const BufferCore& buffer) noexcept { return buffer.allocation != nullptr; }

/// The queue this thread last enqueued a command on that used a pooled buffer: the pool's
/// guess of the queue the thread's next allocation will be used on (PyTorch asks for the
/// current stream; xgpu's allocation has no queue). A wrong guess costs a device-side wait,
/// never correctness: see order_after_previous_user().
const void* last_queue_of_this_thread() noexcept;
void set_last_queue_of_this_thread(const void* queue) noexcept;

/// The ordering part of before_command(), for a caller that notes the thread's last queue
/// itself (a launch: once for all its buffers).
inline void order_after_previous_user(const BufferCore& buffer, const Module& module, void* queue) {
  if (touches_pool(buffer) && buffer.allocation->follows_previous_user())
    buffer.allocation->order_after_previous_user(&module, queue);
}

/// Called before every command that uses `buffer` on `queue`, before it is enqueued: one
/// pointer test for a buffer that is not pooled.
inline void before_command(const BufferCore& buffer, const Module& module, void* queue) {
  if (!touches_pool(buffer)) return;
  set_last_queue_of_this_thread(queue);
  order_after_previous_user(buffer, module, queue);
}

}  // namespace xgpu::detail
