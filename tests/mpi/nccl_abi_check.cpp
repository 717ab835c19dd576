// libxgpu-mpi declares NCCL's ABI itself (runtime/mpi/src/nccl_abi.hpp); where NCCL's header is
// installed, this file is compiled into xgpu-mpi-tests and fails the build if a value drifts.
#include <nccl.h>

#include "nccl_abi.hpp"

namespace abi = xgpu::mpi::detail::nccl_abi;

static_assert(abi::kSuccess == ncclSuccess);
static_assert(sizeof(abi::UniqueId) == sizeof(ncclUniqueId));
static_assert(abi::kInt32 == ncclInt32 && abi::kUint32 == ncclUint32 && abi::kInt64 == ncclInt64);
static_assert(abi::kFloat16 == ncclFloat16 && abi::kFloat32 == ncclFloat32 &&
              abi::kFloat64 == ncclFloat64);
static_assert(abi::kSum == ncclSum && abi::kProd == ncclProd && abi::kMax == ncclMax &&
              abi::kMin == ncclMin);
