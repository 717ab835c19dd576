// NVIDIA's libraries xgpu opens at run time that more than one part of xgpu opens, named once:
// the driver (the cuda module; libxgpu-mpi, to make a device's context current for NCCL) and
// NCCL (libxgpu-mpi's allreduce on cuda-module devices). Their files are the settings'
// defaults (settings.def).
#pragma once

#include "xgpu/common/dynamic_library.hpp"

namespace xgpu::common {

/// The driver: libcuda.so.1 is what NVIDIA's driver installs (the unversioned libcuda.so is the
/// toolkit's link-time stub, which fails every call). XGPU_CUDA_LIBRARY names another file.
inline const LibrarySpec kCudaDriverLibrary =
    library_spec("the NVIDIA driver", Setting::cuda_library);
/// NCCL 2 (its ABI has kept the 2.x entry points); XGPU_NCCL_LIBRARY names another file.
inline const LibrarySpec kNcclLibrary = library_spec("NCCL", Setting::nccl_library);

}  // namespace xgpu::common
