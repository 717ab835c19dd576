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
  static const xgpu_backend_v1 kTable = [] {
    xgpu_backend_v1 table = xgpu::backend_cuda::make_backend_table("cuda");
    // An optional member only this module fills (entries.hpp).
    table.buffer_copy_peer = xgpu::backend_cuda::buffer_copy_peer;
    return table;
  }();
  return &kTable;
}
