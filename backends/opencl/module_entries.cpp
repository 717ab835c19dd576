// Module life and device enumeration entries: init, status names, devices. (last_error is
// xgpu::common::last_error.)

#include "xgpu/common/module_entries.hpp"

#include "entries.hpp"
#include "errors.hpp"
#include "registry.hpp"
#include "status_names.hpp"

namespace xgpu::backend_opencl {

xgpu_status init(const xgpu_host_v1* host) {
  return common::module_init(host, "opencl", registry_init);
}

xgpu_status device_count(uint32_t* count) {
  return common::module_device_count(count, registry_device_count);
}

xgpu_status device_get(uint32_t index, xgpu_device* device) {
  return common::module_device_get(index, device, [](uint32_t i) {
    return reinterpret_cast<xgpu_device>(registry_device(i).device);
  });
}

}  // namespace xgpu::backend_opencl
