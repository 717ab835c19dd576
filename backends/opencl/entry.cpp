// The module's one exported symbol and the table it returns.
#include "entries.hpp"
#include "xgpu/common/errors.hpp"

namespace xgpu::opencl {
namespace {

// Filled member by member rather than positionally: many members share a signature, and a
// positional list would let two of them swap without a compiler error.
xgpu_backend_v1 make_table() {
  xgpu_backend_v1 t{};
  t.struct_size = sizeof(xgpu_backend_v1);
  t.abi_version = XGPU_BACKEND_ABI_VERSION;
  t.name = "opencl";
  t.init = init;
  t.status_name = status_name_entry;
  t.last_error = common::last_error;
  t.retain = retain;
  t.release = release;
  t.device_count = device_count;
  t.device_get = device_get;
  t.device_info = device_info;
  t.context_create = context_create;
  t.queue_create = queue_create;
  t.queue_flush = queue_flush;
  t.queue_finish = queue_finish;
  t.buffer_create = buffer_create;
  t.buffer_write = buffer_write;
  t.buffer_read = buffer_read;
  t.buffer_copy = buffer_copy;
  t.buffer_fill = buffer_fill;
  t.buffer_map = buffer_map;
  t.buffer_unmap = buffer_unmap;
  t.program_create = program_create;
  t.program_build = program_build;
  t.program_build_log = program_build_log;
  t.program_kernel_names = program_kernel_names;
  t.kernel_create = kernel_create;
  t.kernel_arg_count = kernel_arg_count;
  t.kernel_arg_info = kernel_arg_info;
  t.kernel_set_arg = kernel_set_arg;
  t.kernel_set_arg_buffer = kernel_set_arg_buffer;
  t.kernel_set_arg_local = kernel_set_arg_local;
  t.kernel_launch = kernel_launch;
  t.event_wait = event_wait;
  t.event_status = event_status;
  t.event_profile = event_profile;
  t.program_binary = program_binary;
  t.program_create_binary = program_create_binary;
  t.native_handle = native_handle;
  t.kernel_limit = kernel_limit;
  t.blas_gemm = blas_gemm;
  t.kernel_launch_with_args = kernel_launch_with_args;
  t.queue_barrier = queue_barrier;
  t.buffer_create_sub = buffer_create_sub;
  return t;
}

}  // namespace
}  // namespace xgpu::opencl

extern "C" __attribute__((visibility("default"))) const xgpu_backend_v1* xgpu_backend_entry(
    uint32_t host_abi_version) {
  if (host_abi_version != XGPU_BACKEND_ABI_VERSION) return nullptr;
  static const xgpu_backend_v1 kTable = xgpu::opencl::make_table();
  return &kTable;
}
