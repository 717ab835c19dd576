// The blocking collectives: each checks its arguments, agrees with the other ranks and runs its
// plan on the caller's queue (collective_run.hpp). They wait first for the Comm's pending
// non-blocking collectives, so every rank makes its MPI calls in the order of its own calls.
#include <xgpu/extension.hpp>
#include <xgpu/mpi/collectives.hpp>

#include "collective_run.hpp"
#include "comm_state.hpp"
#include "errors.hpp"
#include "nccl.hpp"

namespace xgpu::mpi {
namespace {

using detail::Call;
using detail::Kind;

// Agrees, then runs the plan `make` gives for the agreed Where.
void run(Queue& queue, const Comm& comm, const Call& call, const std::function<void()>& check,
         const std::function<std::unique_ptr<detail::Plan>(const detail::Where&)>& make) {
  detail::CommState& state = detail::state_of(comm, call.name);
  state.worker.drain();
  const detail::Prepared prepared = detail::prepare(queue, comm, call, check, false);
  const detail::Agreement agreed = detail::agree(state, prepared.call, prepared.local_failure);
  auto plan = make(detail::where_of(state, call.type, agreed));
  detail::execute(queue, *plan, prepared.transport);
}

Call make_call(const char* name, Kind kind, DataType type, std::uint64_t count) {
  Call call;
  call.name = name;
  call.kind = kind;
  call.type = type;
  call.count = count;
  return call;
}

std::uint64_t elements(const UntypedBuffer& buffer, DataType type) {
  const std::size_t size = size_of(type);
  return size ? buffer.bytes() / size : 0;
}

}  // namespace

void allreduce(Queue& queue, const UntypedBuffer& buffer, DataType type, Op op, const Comm& comm) {
  constexpr const char* kName = "xgpu::mpi::allreduce";
  detail::CommState& state = detail::state_of(comm, kName);
  state.worker.drain();
  const detail::Prepared prepared = detail::prepare_allreduce(queue, comm, buffer, type, op, kName);
  const detail::Agreement agreed = detail::agree(state, prepared.call, prepared.local_failure);
  if (agreed.nccl) {
    detail::nccl_allreduce(queue, buffer, type, op, state);
    queue.marker().wait();
    return;
  }
  auto plan = detail::allreduce_plan(detail::where_of(state, type, agreed), buffer, op);
  detail::execute(queue, *plan, prepared.transport);
}

void reduce(Queue& queue, const UntypedBuffer& buffer, DataType type, Op op, int root,
            const Comm& comm) {
  constexpr const char* kName = "xgpu::mpi::reduce";
  Call call = make_call(kName, Kind::reduce, type, elements(buffer, type));
  call.op = static_cast<std::int64_t>(op);
  call.root = root;
  run(
      queue, comm, call,
      [&] {
        detail::check_op(op, kName);
        detail::check_root(root, comm.size(), kName);
        detail::check_buffer(queue, buffer, type, "the buffer", kName);
      },
      [&](const detail::Where& where) { return detail::reduce_plan(where, buffer, op, root); });
}

void broadcast(Queue& queue, const UntypedBuffer& buffer, DataType type, int root,
               const Comm& comm) {
  constexpr const char* kName = "xgpu::mpi::broadcast";
  Call call = make_call(kName, Kind::broadcast, type, elements(buffer, type));
  call.root = root;
  run(
      queue, comm, call,
      [&] {
        detail::check_root(root, comm.size(), kName);
        detail::check_buffer(queue, buffer, type, "the buffer", kName);
      },
      [&](const detail::Where& where) { return detail::broadcast_plan(where, buffer, root); });
}

namespace {

// send and recv of allgather and reduce_scatter: `whole` holds `size` blocks of `part`.
void check_blocks(const Queue& queue, const UntypedBuffer& part, const UntypedBuffer& whole,
                  const char* part_name, const char* whole_name, DataType type, int size,
                  const char* name) {
  detail::check_buffer(queue, part, type, part_name, name);
  detail::check_buffer(queue, whole, type, whole_name, name);
  if (whole.bytes() != part.bytes() * static_cast<std::size_t>(size)) {
    detail::fail(Errc::invalid_argument,
                 std::string(whole_name) + " holds " + std::to_string(elements(whole, type)) +
                     " elements; it must hold " + std::to_string(size) + " (the ranks) times " +
                     part_name + "'s " + std::to_string(elements(part, type)),
                 name);
  }
  if (part.bytes() != 0 && ext::backing_object(part) == ext::backing_object(whole))
    detail::fail(Errc::invalid_argument, "send and recv are the same buffer", name);
}

}  // namespace

void allgather(Queue& queue, const UntypedBuffer& send, const UntypedBuffer& recv, DataType type,
               const Comm& comm) {
  constexpr const char* kName = "xgpu::mpi::allgather";
  const Call call = make_call(kName, Kind::allgather, type, elements(send, type));
  run(
      queue, comm, call,
      [&] { check_blocks(queue, send, recv, "send", "recv", type, comm.size(), kName); },
      [&](const detail::Where& where) { return detail::allgather_plan(where, send, recv); });
}

void reduce_scatter(Queue& queue, const UntypedBuffer& send, const UntypedBuffer& recv,
                    DataType type, Op op, const Comm& comm) {
  constexpr const char* kName = "xgpu::mpi::reduce_scatter";
  Call call = make_call(kName, Kind::reduce_scatter, type, elements(recv, type));
  call.op = static_cast<std::int64_t>(op);
  run(
      queue, comm, call,
      [&] {
        detail::check_op(op, kName);
        check_blocks(queue, recv, send, "recv", "send", type, comm.size(), kName);
      },
      [&](const detail::Where& where) {
        return detail::reduce_scatter_plan(where, send, recv, op);
      });
}

void sendrecv(Queue& queue, const UntypedBuffer& send, int dest, const UntypedBuffer& recv,
              int source, DataType type, const Comm& comm, int tag) {
  constexpr const char* kName = "xgpu::mpi::sendrecv";
  detail::CommState& state = detail::state_of(comm, kName);
  state.worker.drain();
  auto valid = [&](int rank) { return rank == MPI_PROC_NULL || (rank >= 0 && rank < state.size); };
  auto check_peer = [&](int rank, const char* what) {
    if (valid(rank)) return;
    detail::fail(Errc::invalid_argument,
                 std::string(what) + " " + std::to_string(rank) +
                     " is not a rank of the Comm (0 to " + std::to_string(state.size - 1) +
                     ") nor MPI_PROC_NULL",
                 kName);
  };
  // An invalid partner is no partner: the valid one is still told, so it throws too.
  const int to = valid(dest) ? dest : MPI_PROC_NULL;
  const int from = valid(source) ? source : MPI_PROC_NULL;
  const detail::Prepared prepared = detail::prepare(
      queue, comm, make_call(kName, Kind::allreduce, type, 0),
      [&] {
        check_peer(dest, "dest");
        check_peer(source, "source");
        detail::check_buffer(queue, send, type, "send", kName);
        detail::check_buffer(queue, recv, type, "recv", kName);
        if (send.bytes() != 0 && ext::backing_object(send) == ext::backing_object(recv))
          detail::fail(Errc::invalid_argument, "send and recv are the same buffer", kName);
      },
      false);
  const detail::PairAgreement pair =
      detail::agree_pair(state, kName, to, from, tag, type, elements(send, type),
                         elements(recv, type), prepared.call.chunk_bytes, prepared.local_failure);
  auto plan = detail::sendrecv_plan(
      detail::where_of(state, type, detail::Agreement{prepared.call.chunk_bytes, false}), send, to,
      recv, from, pair);
  detail::execute(queue, *plan, prepared.transport);
  if (pair.failure) std::rethrow_exception(pair.failure);
}

}  // namespace xgpu::mpi
