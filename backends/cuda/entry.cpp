// The module's one exported symbol and the table it returns.
#include "entries.hpp"
#include "xgpu/common/errors.hpp"

namespace xgpu::backend_cuda {
namespace {

#include "xgpu/common/backend_table.inc"

}  // namespace
}  // namespace xgpu::backend_cuda

extern "C" __attribute__((visibility("default"))) const xgpu_backend_v1* xgpu_backend_entry(
    uint32_t host_abi_version) {
  if (host_abi_version != XGPU_BACKEND_ABI_VERSION) return nullptr;
  static const xgpu_backend_v1 kTable = xgpu::backend_cuda::make_backend_table("cuda");
  return &kTable;
}
