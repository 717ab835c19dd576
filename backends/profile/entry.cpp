// The module's one exported symbol, its table, and its life: init, status names, devices.
#include <cstdlib>
#include <mutex>
#include <string>

#include "device_info_entry.hpp"
#include "entries.hpp"
#include "inner_module.hpp"
#include "profile_devices.hpp"
#include "xgpu/common/errors.hpp"
#include "xgpu/common/log.hpp"
#include "xgpu/common/settings.hpp"
#include "xgpu/common/status_names.hpp"

namespace xgpu::profile {
namespace {

bool g_inner_loaded = false;

}  // namespace

// A member this module does not decorate (entries.hpp) is the inner module's, with its failure
// text carried over to this module's last_error() (the core asks this module, not the inner
// one). An optional member the inner module lacks is UNSUPPORTED, as the ABI says.
template <auto Member, class... Args>
xgpu_status fallback(Args... args) {
  return common::guard([&] {
    if (!(inner().*Member)) return XGPU_STATUS_UNSUPPORTED;
    return pass((inner().*Member)(args...));
  });
}

#include "xgpu/common/backend_fallbacks.inc"
#include "xgpu/common/backend_table.inc"

namespace {

xgpu_backend_v1 make_table() {
  xgpu_backend_v1 t = make_backend_table("profile");
  // No program binaries, so the core's kernel cache keeps nothing for a profile device: its
  // key (source, options, the device's name and versions) cannot see what this module puts
  // before the source (the extension macros of the profile), and an edited profile would
  // load a binary built under the old one. The driver's own cache (PoCL's) keys the source
  // it is given, so builds stay cheap.
  t.program_binary = nullptr;
  t.program_create_binary = nullptr;
  return t;
}

}  // namespace

// Without XGPU_PROFILE the module offers no device and does not touch the opencl module. A
// bad profile refuses them all (device indices never shift silently): `xgpu query
// --modules` shows why, and the opencl module's own devices are unaffected.
xgpu_status init(const xgpu_host_v1* host) {
  // Once per process: a second init (a program that opens this module itself, as the tests
  // do) must not remake the devices under the core's handles. It gets the first answer.
  static std::mutex once_mutex;
  static bool done = false;
  static xgpu_status status = XGPU_STATUS_SUCCESS;
  static std::string why;
  std::lock_guard<std::mutex> lock(once_mutex);
  if (done) {
    if (status != XGPU_STATUS_SUCCESS) common::set_last_error(why.c_str());
    return status;
  }
  done = true;
  common::set_log_host(host);
  if (common::setting_text(common::Setting::profile).empty()) {
    why = "no profile: XGPU_PROFILE is not set";
    status = XGPU_STATUS_NOT_AVAILABLE;
  } else {
    status = common::guard([&] {
      load_inner(host);
      g_inner_loaded = true;
      load_profiles();
      return XGPU_STATUS_SUCCESS;
    });
    if (status != XGPU_STATUS_SUCCESS) {
      why = common::last_error_text();
      XGPU_LOG_WARNF("no profile device: %s", why.c_str());
    }
  }
  common::set_last_error(why.c_str());
  return status;
}

const char* status_name(xgpu_status status) {
  // The statuses are the inner driver's (CL_*), so its table names them.
  return g_inner_loaded ? inner().status_name(status) : common::status_name_or_unknown(status);
}

xgpu_status device_count(uint32_t* count) {
  return common::guard([&] {
    if (!count) common::fail(XGPU_STATUS_INVALID_VALUE, "device_count: count is NULL");
    *count = static_cast<uint32_t>(profile_count());
    return XGPU_STATUS_SUCCESS;
  });
}

xgpu_status device_get(uint32_t index, xgpu_device* device) {
  return common::guard([&] {
    if (!device) common::fail(XGPU_STATUS_INVALID_VALUE, "device_get: device is NULL");
    *device = reinterpret_cast<xgpu_device>(&profile_at(index));
    return XGPU_STATUS_SUCCESS;
  });
}

}  // namespace xgpu::profile

extern "C" __attribute__((visibility("default"))) const xgpu_backend_v1* xgpu_backend_entry(
    uint32_t host_abi_version) {
  if (host_abi_version != XGPU_BACKEND_ABI_VERSION) return nullptr;
  static const xgpu_backend_v1 kTable = xgpu::profile::make_table();
  return &kTable;
}
