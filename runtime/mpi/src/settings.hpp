// The settings of libxgpu-mpi, read in one place (settings.cpp).
#pragma once

#include <cstddef>
#include <xgpu/mpi/types.hpp>

namespace xgpu::mpi::detail {

struct Settings {
  /// XGPU_MPI_TRANSPORT: auto (default), mapped, staged or nccl.
  Transport transport = Transport::automatic;
  /// XGPU_MPI_CHUNK: bytes of one staged chunk ("256K", "4M"; default 1M, settings.def, with
  /// the measurements behind it in docs/mpi.md); > 0.
  std::size_t chunk_bytes = 0;
};

/// The settings, read from the environment on the first call. Throws invalid_argument naming the
/// variable, its value and what it allows when a value does not parse (and again on every call).
const Settings& settings();

}  // namespace xgpu::mpi::detail
