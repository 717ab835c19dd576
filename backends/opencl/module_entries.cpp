// Module life and device enumeration entries: init, status names, devices. (last_error is
// xgpu::common::last_error.)

#include "entries.hpp"
#include "errors.hpp"
#include "registry.hpp"
#include "status_names.hpp"
#include "xgpu/common/log.hpp"

namespace xgpu::opencl {

xgpu_status init(const xgpu_host_v1* host) {
  return guard([&] {
    // A later init may bring a new host callback; the enumeration itself happens once.
    common::set_log_host(host);
    XGPU_LOG_DEBUGF("init: opencl backend, ABI %u", XGPU_BACKEND_ABI_VERSION);
    return registry_init();
  });
}

const char* status_name_entry(xgpu_status status) { return status_name(status); }

xgpu_status device_count(uint32_t* count) {
  return guard([&] {
    if (count == nullptr) fail(XGPU_STATUS_INVALID_VALUE, "device_count: count is NULL");
    *count = static_cast<uint32_t>(registry_device_count());
    return XGPU_STATUS_SUCCESS;
  });
}

xgpu_status device_get(uint32_t index, xgpu_device* device) {
  return guard([&] {
    if (device == nullptr) fail(XGPU_STATUS_INVALID_VALUE, "device_get: device is NULL");
    *device = reinterpret_cast<xgpu_device>(registry_device(index).device);
    return XGPU_STATUS_SUCCESS;
  });
}

}  // namespace xgpu::opencl
