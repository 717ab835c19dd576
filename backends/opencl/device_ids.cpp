// UUID and PCI address queries, the Khronos extension first, then the vendor's.
#include "device_ids.hpp"

#include <cstdio>
#include <optional>

#include "cl_query.hpp"
#include "errors.hpp"
#include "vendor.hpp"

namespace xgpu::opencl {
namespace {

constexpr size_t kUuidSize = 16;  // CL_UUID_SIZE_KHR

// cl_device_pci_bus_info_khr.
struct PciBusInfoKhr {
  cl_uint domain;
  cl_uint bus;
  cl_uint device;
  cl_uint function;
};

std::optional<PciAddress> khr_pci_address(const DeviceRecord& record) {
  if (!has_extension(record.extensions, "cl_khr_pci_bus_info")) return std::nullopt;
  auto info = device_scalar<PciBusInfoKhr>(record.device, kDevicePciBusInfoKhr);
  return PciAddress{info.domain, info.bus, info.device, info.function};
}

}  // namespace

std::string device_uuid(const DeviceRecord& record) {
  if (!has_extension(record.extensions, "cl_khr_device_uuid")) {
    fail(XGPU_STATUS_NOT_AVAILABLE, "device UUID not reported (no cl_khr_device_uuid)");
  }
  unsigned char uuid[kUuidSize] = {};
  check_device_info(clGetDeviceInfo(record.device, kDeviceUuidKhr, sizeof(uuid), uuid, nullptr));
  char text[2 * kUuidSize + 1];
  bool all_zero = true;
  for (size_t i = 0; i < kUuidSize; ++i) {
    std::snprintf(text + 2 * i, 3, "%02x", uuid[i]);
    all_zero = all_zero && uuid[i] == 0;
  }
  // Some drivers list the extension but fill zeros: that identifies nothing.
  if (all_zero) fail(XGPU_STATUS_NOT_AVAILABLE, "device UUID reported as all zeros");
  return text;
}

std::string device_pci_bus_id(const DeviceRecord& record) {
  std::optional<PciAddress> address = khr_pci_address(record);
  const VendorHooks& hooks = vendor_hooks(record.classification.implementation);
  if (!address && hooks.pci_address != nullptr) {
    address = hooks.pci_address(record.device, record.extensions);
  }
  if (!address) fail(XGPU_STATUS_NOT_AVAILABLE, "device PCI address not reported");
  char text[32];
  std::snprintf(text, sizeof(text), "%04x:%02x:%02x.%x", address->domain, address->bus,
                address->device, address->function);
  return text;
}

}  // namespace xgpu::opencl
