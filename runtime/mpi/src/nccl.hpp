// NCCL for cuda-module devices: opened at run time (like cuBLAS), one NCCL communicator per Comm,
// its unique id broadcast over the Comm's private MPI communicator. The declarations are xgpu's
// own (NCCL's ABI), so this compiles without NCCL's header; a test checks them against the
// header where it is installed.
#pragma once

#include <string>
#include <xgpu/buffer.hpp>
#include <xgpu/device.hpp>
#include <xgpu/mpi/types.hpp>
#include <xgpu/queue.hpp>

namespace xgpu::mpi::detail {

struct CommState;

/// "" when NCCL and the driver entry points it needs opened, else why not.
const std::string& nccl_missing();
/// Whether this rank can all-reduce on `device` through NCCL: a cuda-module device, NCCL there,
/// and the Comm's NCCL communicator (if made) on the same device. Sets *why_not otherwise.
bool nccl_usable(const Device& device, const CommState* comm, std::string* why_not);

/// The NCCL communicator of a Comm (made on first use) and the device it serves.
class NcclComms {
 public:
  NcclComms() = default;
  ~NcclComms();
  NcclComms(const NcclComms&) = delete;
  NcclComms& operator=(const NcclComms&) = delete;
  void* comm = nullptr;
  Context context;
};

/// Enqueues an in-place ncclAllReduce of `buffer` on `queue`'s stream; makes the Comm's NCCL
/// communicator first if it has none (collective: every rank of `comm` must be here).
void nccl_allreduce(Queue& queue, const xgpu::UntypedBuffer& buffer, DataType type, Op op,
                    CommState& comm);

}  // namespace xgpu::mpi::detail
