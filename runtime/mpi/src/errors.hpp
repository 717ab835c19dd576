// MPI's failures as xgpu::Error, and the errors libxgpu-mpi raises itself.
#pragma once

#include <string>
#include <xgpu/error.hpp>

namespace xgpu::mpi::detail {

/// Throws xgpu::Error (backend) naming `call` and MPI's own text for `code`, unless it is
/// MPI_SUCCESS. xgpu's communicators return errors (MPI_ERRORS_RETURN) instead of aborting.
void check_mpi(int code, const char* call);

/// Throws xgpu::Error of `code` with `message`, from `call` ("xgpu::mpi::allreduce").
[[noreturn]] void fail(Errc code, const std::string& message, const char* call);

}  // namespace xgpu::mpi::detail
