// Queue::copy between buffers of two contexts (two devices, two backends, or two contexts of
// one device): a peer copy where the module offers one, else staged through pinned host
// memory in chunks. docs/multi-device.md describes the ordering and the figures.
#pragma once

#include <cstddef>

#include "xgpu/buffer.hpp"
#include "xgpu/event.hpp"
#include "xgpu/queue.hpp"

namespace xgpu::detail {

/// Bytes moved per step of a staged copy: the read of the next chunks overlaps the write of
/// this one. Large enough that a step's fixed cost (two enqueues, a wait) is small against its
/// transfer; small enough that filling and draining the pipeline costs little, and that a
/// chunk a CPU device's read just wrote is still in the last-level cache when its write reads
/// it (docs/multi-device.md has the measurements).
inline constexpr std::size_t kStagedCopyChunk = std::size_t(4) << 20;
/// Pinned buffers a staged copy cycles through: reads run this many chunks less one ahead of
/// the writes, so a read or write held up for a moment (a shared machine, a busy driver thread)
/// does not stall the other side at once.
inline constexpr std::size_t kStagedCopyStages = 2;

/// Copies `bytes` from `src` at `src_offset` to `dst` at `dst_offset` (byte offsets, checked
/// by the caller; bytes > 0). `queue` is of dst's context, src of another. The copy starts
/// after every command enqueued so far that uses src (on any queue: the queues its allocation
/// records) and comes before whatever is enqueued on `queue` next. A peer copy returns once
/// enqueued, its Event completing with it; a staged copy returns once done (after `queue`'s
/// earlier commands, being in order behind them).
Event copy_across_contexts(Queue& queue, const BufferCore& src, const BufferCore& dst,
                           std::size_t src_offset, std::size_t dst_offset, std::size_t bytes);

}  // namespace xgpu::detail
