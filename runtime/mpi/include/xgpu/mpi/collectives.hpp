// Collectives across MPI ranks on xgpu buffers: allreduce (in place), reduce, broadcast,
// allgather, reduce_scatter, sendrecv, and the non-blocking iallreduce.
//
// Each call runs in the order of its queue: it starts once the commands enqueued on `queue`
// before it are done, and the blocking calls return once the result is in the buffer for every
// later command of the queue (the mapped transport's unmap may still be enqueued: another queue
// orders after it with queue.marker(); on a CPU device there is nothing to wait for). Before
// any data moves, the ranks compare what each was called with (the collective, element type,
// count, operation, root) and whether each accepted its arguments, in one small MPI_Allreduce: a
// mismatch or a refused argument throws xgpu::Error on every rank, naming it, instead of hanging
// or mixing data. Buffers may be empty (0 elements) on every rank.
//
// The typed templates take Buffer<T> of float, double, half, int32, int64 or uint32. The untyped
// functions take the buffer's core and its DataType, for bindings that know the type at run time.
#pragma once

#include <memory>
#include <xgpu/buffer.hpp>
#include <xgpu/event.hpp>
#include <xgpu/mpi/comm.hpp>
#include <xgpu/mpi/types.hpp>
#include <xgpu/queue.hpp>

namespace xgpu::mpi {
namespace detail {
struct RequestState;
struct Internals;
}  // namespace detail

/// A pending iallreduce. It is also an xgpu Event (event(), or the conversion), which completes
/// once the collective has ended on this rank, the result in the buffer: `queue.wait(request)`
/// orders later device work after it without blocking the host. wait() blocks and throws the
/// collective's error, if any: a failed collective completes its Event all the same (OpenCL
/// drivers differ on failed events; PoCL aborts), so call wait() before trusting the buffer. An
/// empty Request is complete.
class XGPU_MPI_API Request {
 public:
  Request() = default;

  /// Blocks until the collective has finished on this rank; throws its xgpu::Error.
  void wait() const;
  /// Whether it has finished (well or not), without blocking.
  bool test() const;
  /// Completes with the collective. Where the device's backend offers no event the host can
  /// complete (docs/mpi.md: not the opencl module), it is made by waiting for the collective.
  const Event& event() const;
  operator const Event&() const { return event(); }

 private:
  friend struct detail::Internals;
  explicit Request(std::shared_ptr<detail::RequestState> state) : state_(std::move(state)) {}
  std::shared_ptr<detail::RequestState> state_;
};

// ---- Untyped: a buffer's core and its element type ----

XGPU_MPI_API void allreduce(Queue& queue, const UntypedBuffer& buffer, DataType type, Op op,
                            const Comm& comm);
XGPU_MPI_API void reduce(Queue& queue, const UntypedBuffer& buffer, DataType type, Op op, int root,
                         const Comm& comm);
XGPU_MPI_API void broadcast(Queue& queue, const UntypedBuffer& buffer, DataType type, int root,
                            const Comm& comm);
XGPU_MPI_API void allgather(Queue& queue, const UntypedBuffer& send, const UntypedBuffer& recv,
                            DataType type, const Comm& comm);
XGPU_MPI_API void reduce_scatter(Queue& queue, const UntypedBuffer& send, const UntypedBuffer& recv,
                                 DataType type, Op op, const Comm& comm);
XGPU_MPI_API void sendrecv(Queue& queue, const UntypedBuffer& send, int dest,
                           const UntypedBuffer& recv, int source, DataType type, const Comm& comm,
                           int tag);
XGPU_MPI_API Request iallreduce(Queue& queue, const UntypedBuffer& buffer, DataType type, Op op,
                                const Comm& comm);

// ---- Typed ----

/// Every rank's buffer becomes the reduction of all of them (same count on every rank).
template <class T>
void allreduce(Queue& queue, const Buffer<T>& buffer, Op op = Op::sum,
               const Comm& comm = Comm::world()) {
  allreduce(queue, buffer.untyped(), data_type_of<T>(), op, comm);
}
/// The reduction of every rank's buffer lands in `root`'s buffer; the others keep theirs.
template <class T>
void reduce(Queue& queue, const Buffer<T>& buffer, Op op, int root,
            const Comm& comm = Comm::world()) {
  reduce(queue, buffer.untyped(), data_type_of<T>(), op, root, comm);
}
/// `root`'s buffer is copied into every other rank's.
template <class T>
void broadcast(Queue& queue, const Buffer<T>& buffer, int root, const Comm& comm = Comm::world()) {
  broadcast(queue, buffer.untyped(), data_type_of<T>(), root, comm);
}
/// recv (size() * send.size() elements) gets rank r's send in its block r. send and recv are
/// two buffers.
template <class T>
void allgather(Queue& queue, const Buffer<T>& send, const Buffer<T>& recv,
               const Comm& comm = Comm::world()) {
  allgather(queue, send.untyped(), recv.untyped(), data_type_of<T>(), comm);
}
/// send holds size() blocks of recv.size() elements; rank r's recv gets the reduction over the
/// ranks of their block r (MPI_Reduce_scatter_block).
template <class T>
void reduce_scatter(Queue& queue, const Buffer<T>& send, const Buffer<T>& recv, Op op = Op::sum,
                    const Comm& comm = Comm::world()) {
  reduce_scatter(queue, send.untyped(), recv.untyped(), data_type_of<T>(), op, comm);
}
/// Sends `send` to rank `dest` and receives into `recv` from rank `source` at once (either may be
/// MPI_PROC_NULL). The source's send must have recv's element count and type: otherwise both
/// ends of that pair throw. `tag` tells apart several exchanges between the same ranks.
template <class T>
void sendrecv(Queue& queue, const Buffer<T>& send, int dest, const Buffer<T>& recv, int source,
              const Comm& comm = Comm::world(), int tag = 0) {
  sendrecv(queue, send.untyped(), dest, recv.untyped(), source, data_type_of<T>(), comm, tag);
}
/// allreduce without waiting: returns at once. Leave the buffer alone until the Request (or its
/// Event) completes.
template <class T>
Request iallreduce(Queue& queue, const Buffer<T>& buffer, Op op = Op::sum,
                   const Comm& comm = Comm::world()) {
  return iallreduce(queue, buffer.untyped(), data_type_of<T>(), op, comm);
}

}  // namespace xgpu::mpi
