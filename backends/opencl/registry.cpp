// Platform and device enumeration. Records are never freed: handles given to the core stay
// valid for the life of the module.
#include "registry.hpp"

#include <deque>
#include <vector>

#include "cl_query.hpp"
#include "errors.hpp"
#include "quirk_platforms.hpp"
#include "xgpu/common/log.hpp"
#include "xgpu/common/opencl_loader.hpp"

namespace xgpu::backend_opencl {
namespace {

constexpr const char* kNoPlatformText =
    "no OpenCL platform found: install a driver (e.g. pocl-opencl-icd) or check "
    "/etc/OpenCL/vendors and OCL_ICD_VENDORS";

struct Registry {
  std::mutex mutex;
  bool enumerated = false;
  xgpu_status status = XGPU_STATUS_SUCCESS;
  std::string status_text;
  // A deque keeps records in place as it grows; DeviceRecord holds a once_flag.
  std::deque<DeviceRecord> devices;
};

Registry& registry() {
  static Registry instance;
  return instance;
}

uint32_t type_bits_of(cl_device_type type) {
  uint32_t bits = 0;
  if (type & CL_DEVICE_TYPE_CPU) bits |= XGPU_TYPE_CPU;
  if (type & CL_DEVICE_TYPE_GPU) bits |= XGPU_TYPE_GPU;
  if (type & CL_DEVICE_TYPE_ACCELERATOR) bits |= XGPU_TYPE_ACCELERATOR;
  return bits;
}

void add_device(Registry& reg, cl_platform_id platform, cl_device_id device,
                const DeviceIdentity& platform_identity, size_t platform_index) {
  DeviceRecord& record = reg.devices.emplace_back();
  record.platform = platform;
  record.device = device;
  record.identity = platform_identity;
  record.identity.device_name = device_string(device, CL_DEVICE_NAME);
  record.identity.device_vendor = device_string(device, CL_DEVICE_VENDOR);
  record.identity.vendor_id = device_scalar<cl_uint>(device, CL_DEVICE_VENDOR_ID);
  record.identity.type_bits = type_bits_of(device_scalar<cl_device_type>(device, CL_DEVICE_TYPE));
  record.extensions = device_string(device, CL_DEVICE_EXTENSIONS);
  record.classification = classify_device(record.identity);
  enable_quirks(record);
  XGPU_LOG_DEBUGF(
      "device %zu (platform %zu): %s, vendor \"%s\" id 0x%llx, type bits %u, "
      "hardware %s, implementation %s",
      reg.devices.size() - 1, platform_index, record.identity.device_name.c_str(),
      record.identity.device_vendor.c_str(),
      static_cast<unsigned long long>(record.identity.vendor_id), record.identity.type_bits,
      record.classification.hardware_vendor.c_str(), record.classification.implementation.c_str());
}

void add_platform(Registry& reg, cl_platform_id platform, size_t index) {
  DeviceIdentity identity;
  identity.platform_name = platform_string(platform, CL_PLATFORM_NAME);
  identity.platform_vendor = platform_string(platform, CL_PLATFORM_VENDOR);
  XGPU_LOG_DEBUGF("platform %zu: %s (%s, %s)", index, identity.platform_name.c_str(),
                  identity.platform_vendor.c_str(),
                  platform_string(platform, CL_PLATFORM_VERSION).c_str());
  cl_uint count = 0;
  cl_int status = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &count);
  if (status == CL_DEVICE_NOT_FOUND || count == 0) {
    XGPU_LOG_WARNF("platform %zu (%s) has no device", index, identity.platform_name.c_str());
    return;
  }
  check(status, "clGetDeviceIDs");
  std::vector<cl_device_id> devices(count);
  check(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, count, devices.data(), nullptr),
        "clGetDeviceIDs");
  for (cl_device_id device : devices) {
    try {
      add_device(reg, platform, device, identity, index);
    } catch (const Failure&) {
      reg.devices.pop_back();
      XGPU_LOG_WARNF("skipping a device of platform %zu: %s", index, last_error_text().c_str());
    }
  }
}

// Fills reg.devices; returns the status init() reports, its text recorded as last error.
xgpu_status enumerate(Registry& reg) {
  // No ICD loader, no OpenCL: said here, rather than by the dynamic linker refusing the module.
  const std::string& no_loader = common::opencl_loader_problem();
  if (!no_loader.empty()) {
    set_last_error(("the OpenCL ICD loader could not be opened (" + no_loader +
                    "): " + common::kOpenClLoaderFix)
                       .c_str());
    return kPlatformNotFoundKhr;
  }
  cl_uint count = 0;
  cl_int status = clGetPlatformIDs(0, nullptr, &count);
  if (status == kPlatformNotFoundKhr || (status == CL_SUCCESS && count == 0)) {
    set_last_error(kNoPlatformText);
    return kPlatformNotFoundKhr;
  }
  try {
    check(status, "clGetPlatformIDs");
    std::vector<cl_platform_id> platforms(count);
    check(clGetPlatformIDs(count, platforms.data(), nullptr), "clGetPlatformIDs");
    XGPU_LOG_DEBUGF("init: %u OpenCL platform(s)", count);
    for (size_t i = 0; i < platforms.size(); ++i) {
      try {
        add_platform(reg, platforms[i], i);
      } catch (const Failure&) {
        XGPU_LOG_WARNF("skipping platform %zu: %s", i, last_error_text().c_str());
      }
    }
  } catch (const Failure& failure) {
    return failure.status;
  }
  return XGPU_STATUS_SUCCESS;
}

}  // namespace

xgpu_status registry_init() {
  Registry& reg = registry();
  std::lock_guard<std::mutex> lock(reg.mutex);
  if (!reg.enumerated) {
    reg.status = enumerate(reg);
    if (reg.status != XGPU_STATUS_SUCCESS) reg.status_text = last_error_text();
    reg.enumerated = true;
    XGPU_LOG_DEBUGF("init: %zu OpenCL device(s)", reg.devices.size());
  }
  if (reg.status != XGPU_STATUS_SUCCESS) set_last_error(reg.status_text.c_str());
  return reg.status;
}

size_t registry_device_count() {
  Registry& reg = registry();
  std::lock_guard<std::mutex> lock(reg.mutex);
  return reg.devices.size();
}

DeviceRecord& registry_device(size_t index) {
  Registry& reg = registry();
  std::lock_guard<std::mutex> lock(reg.mutex);
  if (index >= reg.devices.size()) {
    fail(XGPU_STATUS_INVALID_VALUE, "device index " + std::to_string(index) + " out of range: " +
                                        std::to_string(reg.devices.size()) + " device(s)");
  }
  return reg.devices[index];
}

DeviceRecord& registry_find(cl_device_id device) {
  Registry& reg = registry();
  std::lock_guard<std::mutex> lock(reg.mutex);
  for (DeviceRecord& record : reg.devices) {
    if (record.device == device) return record;
  }
  fail(CL_INVALID_DEVICE, "not a device of this module (use device_get)");
}

}  // namespace xgpu::backend_opencl
