// A backend module with no real device, built once per variant (XGPU_STUB_<VARIANT>) to
// prove the core's side of the module ABI negotiation. Each variant proves one thing:
//
//   ok             a valid table, init succeeds, 0 devices: the core loads a module that
//                  offers nothing and reports it as loaded, not as an error.
//   wrong_version  abi_version 99: the core refuses the module and names the version.
//   short_table    struct_size smaller than XGPU_BACKEND_V1_REQUIRED_SIZE: the core
//                  refuses it before reading any member past the size.
//   null_optional  program_binary, program_create_binary and native_handle are NULL: the
//                  core accepts a table whose optional members are absent.
//   throws         device_count throws a C++ exception inside the module; the guard of
//                  xgpu::common turns it into XGPU_STATUS_MODULE_EXCEPTION with last_error
//                  text "stub: deliberate failure", so no exception crosses the C boundary
//                  and the core reports the text.
//   no_entry       a shared library without the entry symbol: refused as "not a module".
//
// Only tests point XGPU_BACKEND_PATH at the folder these are built into.
//
// The stub keeps nothing of its own that every module needs: the guard, the last error,
// the status names and the host log come from xgpu::common, as in the real module.
#include <cstring>
#include <stdexcept>

#include "xgpu/backend.h"
#include "xgpu/common/errors.hpp"
#include "xgpu/common/log.hpp"
#include "xgpu/common/status_names.hpp"

namespace {

using xgpu::common::fail;
using xgpu::common::guard;

xgpu_status unsupported() {
  xgpu::common::set_last_error("stub: the stub backend has no devices");
  return XGPU_STATUS_UNSUPPORTED;
}

xgpu_status stub_init(const xgpu_host_v1* host) {
  return guard([&] {
    xgpu::common::set_log_host(host);
    XGPU_LOG_DEBUGF("stub: init");
    return XGPU_STATUS_SUCCESS;
  });
}

xgpu_status stub_device_count(uint32_t* count) {
  return guard([&] {
#ifdef XGPU_STUB_THROWS
    throw std::runtime_error("stub: deliberate failure");
#endif
    if (!count) fail(XGPU_STATUS_INVALID_VALUE, "stub: device_count: count is NULL");
    *count = 0;
    return XGPU_STATUS_SUCCESS;
  });
}

// Every other required member: there is no device, so nothing can reach them legitimately.
template <class... Args>
xgpu_status refuse(Args...) {
  return unsupported();
}

[[maybe_unused]] xgpu_backend_v1 make_table() {  // unused by no_entry
  xgpu_backend_v1 t;
  std::memset(&t, 0, sizeof t);
  t.struct_size = sizeof(xgpu_backend_v1);
  t.abi_version = XGPU_BACKEND_ABI_VERSION;
  t.name = "stub";
  t.init = stub_init;
  t.status_name = xgpu::common::status_name_or_unknown;
  t.last_error = xgpu::common::last_error;
  t.retain = refuse;
  t.release = refuse;
  t.device_count = stub_device_count;
  t.device_get = refuse;
  t.device_info = refuse;
  t.context_create = refuse;
  t.queue_create = refuse;
  t.queue_flush = refuse;
  t.queue_finish = refuse;
  t.buffer_create = refuse;
  t.buffer_write = refuse;
  t.buffer_read = refuse;
  t.buffer_copy = refuse;
  t.buffer_fill = refuse;
  t.buffer_map = refuse;
  t.buffer_unmap = refuse;
  t.program_create = refuse;
  t.program_build = refuse;
  t.program_build_log = refuse;
  t.program_kernel_names = refuse;
  t.kernel_create = refuse;
  t.kernel_arg_count = refuse;
  t.kernel_arg_info = refuse;
  t.kernel_set_arg = refuse;
  t.kernel_set_arg_buffer = refuse;
  t.kernel_set_arg_local = refuse;
  t.kernel_launch = refuse;
  t.event_wait = refuse;
  t.event_status = refuse;
  t.event_profile = refuse;
#ifndef XGPU_STUB_NULL_OPTIONAL
  t.program_binary = refuse;
  t.program_create_binary = refuse;
  t.native_handle = refuse;
#endif
#ifdef XGPU_STUB_WRONG_VERSION
  t.abi_version = 99;
#endif
#ifdef XGPU_STUB_SHORT_TABLE
  // As if built against a header that lacked event_profile, a required member.
  t.struct_size = static_cast<uint32_t>(XGPU_BACKEND_V1_REQUIRED_SIZE - sizeof(void*));
#endif
  return t;
}

}  // namespace

#ifndef XGPU_STUB_NO_ENTRY
extern "C" __attribute__((visibility("default"))) const xgpu_backend_v1* xgpu_backend_entry(
    uint32_t host_abi_version) {
  static const xgpu_backend_v1 table = make_table();
  (void)host_abi_version;  // the variants answer regardless, so the core's checks are tested
  return &table;
}
#else
// Exported so that the library is a real shared object with a symbol, just not the entry.
extern "C" __attribute__((visibility("default"))) int xgpu_stub_not_an_entry() { return 0; }
#endif
