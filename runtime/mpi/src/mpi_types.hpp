// DataType and Op in MPI's terms. MPI has no half: half travels as 16-bit words and reduces
// through operations of xgpu's own, which compute in float and round once per step.
#pragma once

#include <mpi.h>

#include <xgpu/mpi/types.hpp>

namespace xgpu::mpi::detail {

MPI_Datatype mpi_type(DataType type);
/// The MPI operation reducing `type` with `op` (made on first use for half).
MPI_Op mpi_op(DataType type, Op op);

}  // namespace xgpu::mpi::detail
