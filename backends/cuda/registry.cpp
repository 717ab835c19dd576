// The device list, made once at init() (see registry.hpp).
#include "registry.hpp"

#include <deque>
#include <mutex>
#include <string>

#include "driver.hpp"
#include "errors.hpp"
#include "xgpu/common/log.hpp"

namespace xgpu::backend_cuda {
namespace {

// A deque: records never move, so their addresses can be the ABI's device handles.
std::deque<DeviceRecord> g_devices;
std::once_flag g_once;
xgpu_status g_status = XGPU_STATUS_SUCCESS;
std::string g_text;

void enumerate() {
  load_driver();
  int count = 0;
  check(cu().cuDeviceGetCount(&count), "cuDeviceGetCount");
  for (int ordinal = 0; ordinal < count; ++ordinal) {
    DeviceRecord record;
    record.ordinal = ordinal;
    check(cu().cuDeviceGet(&record.device, ordinal), "cuDeviceGet");
    char name[256] = {};
    check(cu().cuDeviceGetName(name, sizeof(name) - 1, record.device), "cuDeviceGetName");
    record.name = name;
    record.cc_major = device_attribute(record, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
    record.cc_minor = device_attribute(record, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
    XGPU_LOG_DEBUGF("cuda: device %d: %s, compute capability %d.%d", ordinal, name, record.cc_major,
                    record.cc_minor);
    g_devices.push_back(record);
  }
}

}  // namespace

xgpu_status registry_init() {
  std::call_once(g_once, [] {
    g_status = guard([] {
      enumerate();
      return XGPU_STATUS_SUCCESS;
    });
    if (g_status != XGPU_STATUS_SUCCESS) {
      g_text = last_error_text();
      g_devices.clear();  // a failure half-way offers no device rather than some
    }
  });
  if (g_status != XGPU_STATUS_SUCCESS) common::set_last_error(g_text.c_str());
  return g_status;
}

size_t registry_device_count() { return g_devices.size(); }

DeviceRecord& registry_device(size_t index) {
  if (index >= g_devices.size()) {
    fail(XGPU_STATUS_INVALID_VALUE, "device index " + std::to_string(index) + " out of range (" +
                                        std::to_string(g_devices.size()) + " devices)");
  }
  return g_devices[index];
}

DeviceRecord& registry_find(xgpu_device device) {
  for (DeviceRecord& record : g_devices) {
    if (reinterpret_cast<xgpu_device>(&record) == device) return record;
  }
  fail(CUDA_ERROR_INVALID_DEVICE, "not a device of the cuda module");
}

int device_attribute(const DeviceRecord& record, int attribute) {
  int value = 0;
  check(cu().cuDeviceGetAttribute(&value, attribute, record.device), "cuDeviceGetAttribute");
  return value;
}

}  // namespace xgpu::backend_cuda
