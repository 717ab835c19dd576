// NCCL through its C ABI, opened at run time (nccl.hpp). The constants are NCCL 2's (nccl.h:
// ncclDataType_t, ncclRedOp_t); tests/mpi/nccl_abi_check.cpp compares them with the header.
#include "nccl.hpp"

#include <mpi.h>

#include <mutex>
#include <xgpu/cuda.hpp>
#include <xgpu/interop.hpp>

#include "comm_state.hpp"
#include "errors.hpp"
#include "nccl_abi.hpp"
#include "xgpu/common/cuda_libraries.hpp"

namespace xgpu::mpi::detail {
namespace {

constexpr const char* kCall = "xgpu::mpi::allreduce (NCCL)";

struct Api {
  nccl_abi::Result (*get_unique_id)(nccl_abi::UniqueId*) = nullptr;
  nccl_abi::Result (*comm_init_rank)(nccl_abi::Comm*, int, nccl_abi::UniqueId, int) = nullptr;
  nccl_abi::Result (*comm_destroy)(nccl_abi::Comm) = nullptr;
  nccl_abi::Result (*all_reduce)(const void*, void*, std::size_t, int, int, nccl_abi::Comm,
                                 CUstream) = nullptr;
  const char* (*error_string)(nccl_abi::Result) = nullptr;
  // The driver's, to make the device's primary context current: NCCL works on the current one.
  int (*push_context)(CUcontext) = nullptr;
  int (*pop_context)(CUcontext*) = nullptr;
  std::string why_not;
};

const Api& api() {
  static const Api kApi = [] {
    Api api;
    auto nccl = common::DynamicLibrary::open(
        common::kNcclLibrary, {"ncclGetUniqueId", "ncclCommInitRank", "ncclCommDestroy",
                               "ncclAllReduce", "ncclGetErrorString"});
    if (!nccl.loaded()) {
      api.why_not = nccl.why_not();
      return api;
    }
    auto driver = common::DynamicLibrary::open(common::kCudaDriverLibrary,
                                               {"cuCtxPushCurrent_v2", "cuCtxPopCurrent_v2"});
    if (!driver.loaded()) {
      api.why_not = driver.why_not();
      return api;
    }
    api.get_unique_id = nccl.function<decltype(api.get_unique_id)>("ncclGetUniqueId");
    api.comm_init_rank = nccl.function<decltype(api.comm_init_rank)>("ncclCommInitRank");
    api.comm_destroy = nccl.function<decltype(api.comm_destroy)>("ncclCommDestroy");
    api.all_reduce = nccl.function<decltype(api.all_reduce)>("ncclAllReduce");
    api.error_string = nccl.function<decltype(api.error_string)>("ncclGetErrorString");
    api.push_context = driver.function<decltype(api.push_context)>("cuCtxPushCurrent_v2");
    api.pop_context = driver.function<decltype(api.pop_context)>("cuCtxPopCurrent_v2");
    return api;
  }();
  return kApi;
}

void check_nccl(nccl_abi::Result result, const char* call) {
  if (result == nccl_abi::kSuccess) return;
  Error::Details details;
  details.code = Errc::backend;
  details.call = call;
  details.native_status = result;
  details.native_name = "ncclResult_t";
  details.message = std::string(call) + " failed: " + api().error_string(result);
  throw Error(std::move(details));
}

// The device's primary context current on this thread while NCCL is called.
class CurrentContext {
 public:
  explicit CurrentContext(const Context& context) {
    if (api().push_context(cuda::context(context)) != 0)
      fail(Errc::backend, "cuCtxPushCurrent failed", kCall);
  }
  ~CurrentContext() {
    CUcontext popped = nullptr;
    api().pop_context(&popped);
  }
};

int nccl_type(DataType type) {
  switch (type) {
    case DataType::f32:
      return nccl_abi::kFloat32;
    case DataType::f64:
      return nccl_abi::kFloat64;
    case DataType::f16:
      return nccl_abi::kFloat16;
    case DataType::i32:
      return nccl_abi::kInt32;
    case DataType::i64:
      return nccl_abi::kInt64;
    case DataType::u32:
      return nccl_abi::kUint32;
  }
  fail(Errc::invalid_argument, "unknown element type", kCall);
}

int nccl_op(Op op) {
  switch (op) {
    case Op::sum:
      return nccl_abi::kSum;
    case Op::prod:
      return nccl_abi::kProd;
    case Op::max:
      return nccl_abi::kMax;
    case Op::min:
      return nccl_abi::kMin;
  }
  fail(Errc::invalid_argument, "unknown operation", kCall);
}

// The Comm's NCCL communicator, made (collectively) on first use.
NcclComms& comms_of(CommState& comm, const Context& context) {
  std::shared_ptr<NcclComms> comms;
  {
    std::lock_guard<std::mutex> lock(comm.mutex);
    if (comm.nccl) return *comm.nccl;
    comms = std::make_shared<NcclComms>();
  }
  nccl_abi::UniqueId id{};
  if (comm.rank == 0) check_nccl(api().get_unique_id(&id), "ncclGetUniqueId");
  check_mpi(MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, comm.own), "MPI_Bcast (NCCL's unique id)");
  comms->context = context;
  {
    CurrentContext current(context);
    check_nccl(api().comm_init_rank(&comms->comm, comm.size, id, comm.rank), "ncclCommInitRank");
  }
  std::lock_guard<std::mutex> lock(comm.mutex);
  comm.nccl = comms;
  return *comm.nccl;
}

}  // namespace

NcclComms::~NcclComms() {
  if (comm == nullptr) return;
  CurrentContext current(context);
  api().comm_destroy(comm);
}

const std::string& nccl_missing() { return api().why_not; }

bool nccl_usable(const Device& device, const CommState* comm, std::string* why_not) {
  auto refuse = [&](std::string why) {
    if (why_not) *why_not = std::move(why);
    return false;
  };
  if (interop::backend(device) != "cuda")
    return refuse(device.describe() + " is not a cuda-module device");
  if (!nccl_missing().empty()) return refuse(nccl_missing());
  if (comm != nullptr) {
    std::lock_guard<std::mutex> lock(const_cast<CommState*>(comm)->mutex);
    if (comm->nccl && comm->nccl->context.device() != device)
      return refuse("this Comm's NCCL communicator serves " +
                    comm->nccl->context.device().describe());
  }
  return true;
}

void nccl_allreduce(Queue& queue, const xgpu::UntypedBuffer& buffer, DataType type, Op op,
                    CommState& comm) {
  NcclComms& comms = comms_of(comm, queue.context());
  const std::size_t count = buffer.bytes() / size_of(type);
  if (count == 0) return;
  void* pointer = reinterpret_cast<void*>(
      static_cast<std::uintptr_t>(cuda::device_pointer(ext::typed<std::uint8_t>(buffer))));
  CurrentContext current(queue.context());
  check_nccl(api().all_reduce(pointer, pointer, count, nccl_type(type), nccl_op(op), comms.comm,
                              cuda::stream(queue)),
             "ncclAllReduce");
}

}  // namespace xgpu::mpi::detail
