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
// the status names, the host log and the table fill come from xgpu::common, as in the real
// module; every member it does not define refuses (backend_fallbacks.inc), so it follows the
// ABI's member list (xgpu/backend_members.def) without an edit.
#include <stdexcept>

#include "xgpu/backend.h"
#include "xgpu/common/errors.hpp"
#include "xgpu/common/log.hpp"
#include "xgpu/common/status_names.hpp"

namespace xgpu::stub {

using common::fail;
using common::guard;

xgpu_status unsupported() {
  common::set_last_error("stub: the stub backend has no devices");
  return XGPU_STATUS_UNSUPPORTED;
}

xgpu_status init(const xgpu_host_v1* host) {
  return guard([&] {
    common::set_log_host(host);
    XGPU_LOG_DEBUGF("stub: init");
    return XGPU_STATUS_SUCCESS;
  });
}

const char* status_name(xgpu_status status) { return common::status_name_or_unknown(status); }

xgpu_status device_count(uint32_t* count) {
  return guard([&] {
#ifdef XGPU_STUB_THROWS
    throw std::runtime_error("stub: deliberate failure");
#endif
    if (!count) fail(XGPU_STATUS_INVALID_VALUE, "stub: device_count: count is NULL");
    *count = 0;
    return XGPU_STATUS_SUCCESS;
  });
}

// Every other member, a new one of the ABI too (backend_fallbacks.inc): there is no device, so
// nothing can reach them legitimately.
template <auto Member, class... Args>
xgpu_status fallback(Args...) {
  return unsupported();
}

#include "xgpu/common/backend_fallbacks.inc"
#include "xgpu/common/backend_table.inc"

[[maybe_unused]] xgpu_backend_v1 make_table() {  // unused by no_entry
  xgpu_backend_v1 t = make_backend_table("stub");
#ifdef XGPU_STUB_NULL_OPTIONAL
  t.program_binary = nullptr;
  t.program_create_binary = nullptr;
  t.native_handle = nullptr;
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

}  // namespace xgpu::stub

#ifndef XGPU_STUB_NO_ENTRY
extern "C" __attribute__((visibility("default"))) const xgpu_backend_v1* xgpu_backend_entry(
    uint32_t host_abi_version) {
  static const xgpu_backend_v1 table = xgpu::stub::make_table();
  (void)host_abi_version;  // the variants answer regardless, so the core's checks are tested
  return &table;
}
#else
// Exported so that the library is a real shared object with a symbol, just not the entry.
extern "C" __attribute__((visibility("default"))) int xgpu_stub_not_an_entry() { return 0; }
#endif
