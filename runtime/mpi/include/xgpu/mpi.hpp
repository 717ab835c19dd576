// libxgpu-mpi (xgpu::mpi): xgpu across MPI ranks, a rank per device. Link xgpu::mpi; see
// docs/mpi.md.
//
//   xgpu::mpi::Env env(argc, argv);
//   xgpu::mpi::Comm comm = xgpu::mpi::Comm::world();
//   xgpu::Context ctx(xgpu::mpi::select_device(comm));
//   xgpu::Queue q = ctx.queue();
//   xgpu::mpi::allreduce(q, gradients, xgpu::mpi::Op::sum, comm);
#pragma once

#include <xgpu/mpi/collectives.hpp>
#include <xgpu/mpi/comm.hpp>
#include <xgpu/mpi/gradient_bucket.hpp>
#include <xgpu/mpi/types.hpp>
