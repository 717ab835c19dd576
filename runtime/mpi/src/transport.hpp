// Which transport a rank uses, and whether a driver's host memory may be handed to MPI.
#pragma once

#include <xgpu/device.hpp>
#include <xgpu/mpi/types.hpp>

namespace xgpu::mpi::detail {

/// Whether memory the device's driver gives the host (a mapping, Context::alloc_host) is known
/// safe to hand MPI. MPI libraries may register, fork-protect or read such memory across
/// processes, which memory the driver owns can refuse (an MPICH report: SIGBUS on OpenCL USM
/// host memory; ordinary malloc memory works). Known safe: a CPU device's (its "device memory"
/// is the process's own heap) and NVIDIA's pinned memory (page-locked ordinary pages, the
/// staging memory CUDA's own MPI guides use). Every other driver's memory is copied to memory
/// of xgpu's own first.
bool host_memory_safe_for_mpi(const DeviceInfo& info);

}  // namespace xgpu::mpi::detail
