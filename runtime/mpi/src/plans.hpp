// Each collective as a Plan (plan.hpp): the pieces of its buffers in each chunk's host areas, and
// its MPI call on them.
#pragma once

#include <mpi.h>

#include <memory>

#include "agreement.hpp"
#include "plan.hpp"

namespace xgpu::mpi::detail {

using Core = xgpu::UntypedBuffer;

/// Where a collective runs: the private communicator, this rank, the ranks, and the element
/// type. chunk_bytes: the agreed largest message.
struct Where {
  MPI_Comm comm = MPI_COMM_NULL;
  int rank = 0, size = 1;
  DataType type = DataType::f32;
  std::size_t chunk_bytes = 0;
};

std::unique_ptr<Plan> allreduce_plan(const Where& where, const Core& buffer, Op op);
std::unique_ptr<Plan> reduce_plan(const Where& where, const Core& buffer, Op op, int root);
std::unique_ptr<Plan> broadcast_plan(const Where& where, const Core& buffer, int root);
std::unique_ptr<Plan> allgather_plan(const Where& where, const Core& send, const Core& recv);
std::unique_ptr<Plan> reduce_scatter_plan(const Where& where, const Core& send, const Core& recv,
                                          Op op);
std::unique_ptr<Plan> sendrecv_plan(const Where& where, const Core& send, int dest,
                                    const Core& recv, int source, const PairAgreement& pair);

}  // namespace xgpu::mpi::detail
