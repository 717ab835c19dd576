// xgpu::mpi::GradientBucket: many small gradients all-reduced as few large messages, while the
// caller goes on with its next work (PyTorch DDP's buckets).
//
// add() copies a gradient, on the queue, into the bucket being filled; once the bucket holds
// `cap_bytes` (25 MiB by default, DDP's bucket_cap_mb) it is all-reduced with iallreduce, which
// returns at once, and a new bucket begins. A gradient of cap_bytes or more is all-reduced on its
// own, in place. wait() starts the last bucket, waits for every all-reduce and copies each result
// back into its gradient, on the queue. Every rank must add the same gradients (counts and type)
// in the same order; a mismatch throws on every rank, as the collectives do.
#pragma once

#include <cstddef>
#include <memory>
#include <xgpu/buffer.hpp>
#include <xgpu/mpi/collectives.hpp>
#include <xgpu/queue.hpp>

namespace xgpu::mpi {
namespace detail {
struct BucketState;
}

class XGPU_MPI_API GradientBucket {
 public:
  static constexpr std::size_t kDefaultCapBytes = std::size_t(25) << 20;

  /// Gradients of `queue`'s context, reduced with `op` over `comm`. Throws invalid_argument for
  /// a cap of 0.
  GradientBucket(Queue queue, Comm comm = Comm::world(), Op op = Op::sum,
                 std::size_t cap_bytes = kDefaultCapBytes);
  ~GradientBucket();
  GradientBucket(GradientBucket&&) noexcept;
  GradientBucket& operator=(GradientBucket&&) noexcept;

  /// Adds a gradient, whose values must be final on the queue (its last writer enqueued). All
  /// gradients of a bucket have one element type: the first add() sets it.
  template <class T>
  void add(const Buffer<T>& gradient) {
    add(gradient.untyped(), data_type_of<T>());
  }
  void add(const UntypedBuffer& gradient, DataType type);
  /// Starts the all-reduce of the gradients added since the last one started.
  void flush();
  /// flush(), then waits for every all-reduce started and copies the results into their
  /// gradients; returns once they are there. Throws the first collective's error.
  void wait();

  /// Bytes added and not yet started.
  std::size_t pending_bytes() const;
  /// All-reduces started since the last wait().
  std::size_t in_flight() const;

 private:
  std::unique_ptr<detail::BucketState> state_;
};

}  // namespace xgpu::mpi
