// The steps every collective shares (collective_run.hpp).
#include "collective_run.hpp"

#include <xgpu/extension.hpp>

#include "comm_state.hpp"
#include "errors.hpp"
#include "internals.hpp"
#include "nccl.hpp"
#include "settings.hpp"
#include "transport.hpp"

namespace xgpu::mpi::detail {
CommState& state_of(const Comm& comm, const char* name) {
  if (!comm) fail(Errc::invalid_handle, "the Comm is empty (default-constructed)", name);
  return *detail::Internals::state(comm);
}

Prepared prepare(Queue& queue, const Comm& comm, Call call, const std::function<void()>& check,
                 bool nccl) {
  Prepared prepared;
  try {
    check_queue(queue, call.name);
    check();
    const Transport wanted = transport_for(queue.device(), comm.transport());
    if (wanted == Transport::nccl) {
      call.nccl =
          nccl && nccl_usable(queue.device(), detail::Internals::state(comm).get(), nullptr);
    } else {
      prepared.transport = wanted;
    }
  } catch (...) {
    prepared.local_failure = std::current_exception();
  }
  call.chunk_bytes = prepared.transport == Transport::mapped
                         ? SIZE_MAX
                         : (comm.chunk() ? comm.chunk() : settings().chunk_bytes);
  prepared.call = call;
  return prepared;
}

Prepared prepare_allreduce(Queue& queue, const Comm& comm, const UntypedBuffer& buffer,
                           DataType type, Op op, const char* name) {
  Call call;
  call.name = name;
  call.kind = Kind::allreduce;
  call.type = type;
  call.count = size_of(type) ? buffer.bytes() / size_of(type) : 0;
  call.op = static_cast<std::int64_t>(op);
  return prepare(
      queue, comm, call,
      [&] {
        check_op(op, name);
        check_buffer(queue, buffer, type, "the buffer", name);
      },
      true);
}

void execute(Queue& queue, Plan& plan, Transport transport) {
  const bool safe = host_memory_safe_for_mpi(queue.device().info());
  if (transport == Transport::mapped) {
    run_mapped(queue, plan, safe);
  } else {
    run_staged(queue, plan, safe);
  }
}

Where where_of(const CommState& comm, DataType type, const Agreement& agreed) {
  return Where{comm.own, comm.rank, comm.size, type, agreed.chunk_bytes};
}

void check_queue(const Queue& queue, const char* call) {
  if (!queue) fail(Errc::invalid_handle, "the Queue is empty (default-constructed)", call);
}

void check_buffer(const Queue& queue, const xgpu::UntypedBuffer& buffer, DataType type,
                  const char* what, const char* call) {
  if (size_of(type) == 0) fail(Errc::invalid_argument, "unknown element type", call);
  if (buffer.bytes() % size_of(type) != 0) {
    fail(Errc::invalid_argument,
         std::string(what) + " holds " + std::to_string(buffer.bytes()) +
             " bytes, not a whole number of " + to_string(type) + " elements",
         call);
  }
  if (buffer.bytes() != 0 && !ext::belongs_to(buffer, queue.context())) {
    fail(Errc::context_mismatch,
         std::string(what) + " belongs to another context than the queue's (" +
             queue.device().describe() + ")",
         call);
  }
}

void check_op(Op op, const char* call) {
  if (static_cast<std::uint32_t>(op) > static_cast<std::uint32_t>(Op::prod))
    fail(Errc::invalid_argument, "unknown reduction operation", call);
}

void check_root(int root, int size, const char* call) {
  if (root < 0 || root >= size) {
    fail(Errc::invalid_argument,
         "root " + std::to_string(root) + " is not a rank of the Comm (0 to " +
             std::to_string(size - 1) + ")",
         call);
  }
}

}  // namespace xgpu::mpi::detail
