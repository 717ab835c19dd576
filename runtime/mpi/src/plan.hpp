// A collective as the transports run it: a sequence of chunks, each an MPI call on one or two
// host areas, which are filled from device buffers before the call and drained into device
// buffers after it. The mapped transport gives the areas the mapped memory itself where it can;
// the staged transport copies them through staging memory, overlapping neighbouring chunks.
#pragma once

#include <cstddef>
#include <vector>
#include <xgpu/buffer.hpp>
#include <xgpu/device.hpp>
#include <xgpu/queue.hpp>

namespace xgpu::mpi::detail {

/// `bytes` bytes of `buffer` from byte `offset`, at byte `at` of a host area.
struct Piece {
  const xgpu::UntypedBuffer* buffer = nullptr;
  std::size_t offset = 0, bytes = 0, at = 0;
};

/// A chunk's host memory: `bytes` long, filled from `fill` before its MPI call, drained into
/// `drain` after it.
struct Area {
  std::size_t bytes = 0;
  std::vector<Piece> fill, drain;
  void clear() {
    bytes = 0;
    fill.clear();
    drain.clear();
  }
};

class Plan {
 public:
  virtual ~Plan() = default;
  virtual std::size_t chunks() const = 0;
  /// Chunk `chunk`'s areas: `a`, and `b` (0 bytes when unused).
  virtual void areas(std::size_t chunk, Area& a, Area& b) const = 0;
  /// The MPI call of chunk `chunk` on its areas' host memory.
  virtual void communicate(std::size_t chunk, void* a, void* b) = 0;
};

/// Runs `plan` by mapping its buffers on `queue`: an area that is one stretch of one buffer is
/// handed to MPI as the mapped memory itself when `direct` (the driver's memory is known safe
/// for MPI), else copied through ordinary host memory. Returns once the buffers are unmapped.
void run_mapped(Queue& queue, Plan& plan, bool direct);
/// Runs `plan` through two staging slots on `queue`: while MPI works on chunk i, the queue
/// drains chunk i-1 and fills chunk i+1. `pinned`: the staging memory may be the driver's
/// pinned memory (Context::alloc_host); else it is ordinary host memory. Returns once the last
/// chunk is in its buffers.
void run_staged(Queue& queue, Plan& plan, bool pinned);

/// Elements per MPI message: `chunk_bytes` rounded down to whole elements (at least one), at
/// most `limit` (MPI counts are int).
std::size_t chunk_elements(std::size_t chunk_bytes, std::size_t element_size, std::size_t limit);

}  // namespace xgpu::mpi::detail
