// What every collective does around its Plan: check this rank's arguments (a refusal is kept,
// to be shown to every rank), choose the transport, agree with the other ranks, run.
#pragma once

#include <exception>
#include <functional>
#include <memory>
#include <xgpu/mpi/comm.hpp>
#include <xgpu/queue.hpp>

#include "agreement.hpp"
#include "plans.hpp"

namespace xgpu::mpi::detail {

/// A rank's side of a collective before the agreement.
struct Prepared {
  Call call;
  Transport transport = Transport::staged;  ///< mapped or staged (nccl when call.nccl)
  std::exception_ptr local_failure;
};

CommState& state_of(const Comm& comm, const char* name);

/// Runs `check` and chooses the transport, keeping any failure in local_failure. `nccl`: the
/// collective can run through NCCL (allreduce).
Prepared prepare(Queue& queue, const Comm& comm, Call call, const std::function<void()>& check,
                 bool nccl);

/// prepare() for an allreduce (`name`: allreduce or iallreduce) of `buffer`'s elements with
/// `op`, which may run through NCCL.
Prepared prepare_allreduce(Queue& queue, const Comm& comm, const UntypedBuffer& buffer,
                           DataType type, Op op, const char* name);

/// Runs a plan on `queue` with the transport (mapped or staged).
void execute(Queue& queue, Plan& plan, Transport transport);

/// The Where of a collective on `comm` after the agreement.
Where where_of(const CommState& comm, DataType type, const Agreement& agreed);

// The checks of arguments, each throwing xgpu::Error naming the mistake.
void check_queue(const Queue& queue, const char* call);
void check_buffer(const Queue& queue, const xgpu::UntypedBuffer& buffer, DataType type,
                  const char* what, const char* call);
void check_op(Op op, const char* call);
void check_root(int root, int size, const char* call);

}  // namespace xgpu::mpi::detail
