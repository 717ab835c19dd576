// NVIDIA's libraries xgpu opens at run time that more than one part of xgpu opens, named once:
// the driver (the cuda module; libxgpu-mpi, to make a device's context current for NCCL) and
// NCCL (libxgpu-mpi's allreduce on cuda-module devices).
#pragma once

#include "xgpu/common/dynamic_library.hpp"

namespace xgpu::common {

/// The driver: libcuda.so.1 is what NVIDIA's driver installs (the unversioned libcuda.so is the
/// toolkit's link-time stub, which fails every call). XGPU_CUDA_LIBRARY names another file.
inline const LibrarySpec kCudaDriverLibrary{
    "the NVIDIA driver", "XGPU_CUDA_LIBRARY", {"libcuda.so.1"}};
/// NCCL 2 (its ABI has kept the 2.x entry points); XGPU_NCCL_LIBRARY names another file.
inline const LibrarySpec kNcclLibrary{"NCCL", "XGPU_NCCL_LIBRARY", {"libnccl.so.2", "libnccl.so"}};

}  // namespace xgpu::common
