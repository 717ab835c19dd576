// The entries every module writes the same way around its own registry: init, device_count,
// device_get, and kernel_limit's checks and dispatch. A module passes what differs (its name,
// its enumeration, its handle for a device, how its driver answers each kernel property);
// these keep the NULL checks, the log line and the refusals' wording in one place.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "xgpu/backend.h"
#include "xgpu/common/errors.hpp"
#include "xgpu/common/log.hpp"

namespace xgpu::common {

/// init(): takes the host's log callback (a later init may bring a new one; the module's
/// enumeration runs once), logs the module's name and ABI, and returns `enumerate()` (the
/// module's registry_init()).
template <class Enumerate>
xgpu_status module_init(const xgpu_host_v1* host, const char* module_name, Enumerate&& enumerate) {
  return guard([&] {
    set_log_host(host);
    XGPU_LOG_DEBUGF("init: %s backend, ABI %u", module_name, XGPU_BACKEND_ABI_VERSION);
    return enumerate();
  });
}

/// device_count(): `count_devices()` through a checked output.
template <class CountDevices>
xgpu_status module_device_count(uint32_t* count, CountDevices&& count_devices) {
  return guard([&] {
    if (count == nullptr) fail(XGPU_STATUS_INVALID_VALUE, "device_count: count is NULL");
    *count = static_cast<uint32_t>(count_devices());
    return XGPU_STATUS_SUCCESS;
  });
}

/// device_get(): `device_at(index)` (the module's handle, which refuses a bad index itself)
/// through a checked output.
template <class DeviceAt>
xgpu_status module_device_get(uint32_t index, xgpu_device* device, DeviceAt&& device_at) {
  return guard([&] {
    if (device == nullptr) fail(XGPU_STATUS_INVALID_VALUE, "device_get: device is NULL");
    *device = device_at(index);
    return XGPU_STATUS_SUCCESS;
  });
}

/// How a module's driver answers each kernel_limit() property; each reader returns the value
/// and is called only for its own property.
template <class MaxWorkGroup, class PreferredMultiple, class LocalMemory, class PrivateMemory>
struct KernelLimitReaders {
  MaxWorkGroup max_work_group_size;
  PreferredMultiple preferred_multiple;
  LocalMemory local_memory;
  PrivateMemory private_memory;
};
template <class A, class B, class C, class D>
KernelLimitReaders(A, B, C, D) -> KernelLimitReaders<A, B, C, D>;

/// kernel_limit()'s body, inside the module's guard: the output checked, the property handed
/// to its reader, any other property refused by number.
template <class Readers>
void answer_kernel_limit(uint32_t property, uint64_t* value, Readers&& readers) {
  if (value == nullptr) fail(XGPU_STATUS_INVALID_VALUE, "kernel_limit: value is NULL");
  switch (property) {
    case XGPU_KERNEL_MAX_WORK_GROUP_SIZE:
      *value = readers.max_work_group_size();
      return;
    case XGPU_KERNEL_PREFERRED_MULTIPLE:
      *value = readers.preferred_multiple();
      return;
    case XGPU_KERNEL_LOCAL_MEMORY:
      *value = readers.local_memory();
      return;
    case XGPU_KERNEL_PRIVATE_MEMORY:
      *value = readers.private_memory();
      return;
  }
  fail(XGPU_STATUS_INVALID_VALUE, "unknown kernel limit " + std::to_string(property));
}

}  // namespace xgpu::common
