// NCCL 2's C ABI as xgpu calls it: the types and constants of nccl.h, declared here so that
// libxgpu-mpi builds where NCCL's header is absent. tests/mpi/nccl_abi_check.cpp checks every
// value against the header where one is installed.
#pragma once

namespace xgpu::mpi::detail::nccl_abi {

using Result = int;  // ncclResult_t
using Comm = void*;  // ncclComm_t, an opaque pointer
struct UniqueId {
  char internal[128];  // NCCL_UNIQUE_ID_BYTES
};

constexpr Result kSuccess = 0;
// ncclDataType_t
constexpr int kInt32 = 2, kUint32 = 3, kInt64 = 4, kFloat16 = 6, kFloat32 = 7, kFloat64 = 8;
// ncclRedOp_t
constexpr int kSum = 0, kProd = 1, kMax = 2, kMin = 3;

}  // namespace xgpu::mpi::detail::nccl_abi
