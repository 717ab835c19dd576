// UUID and PCI address queries, the Khronos extension first, then the vendor's.
#include "device_ids.hpp"

#include <optional>

#include "cl_query.hpp"
#include "errors.hpp"
#include "vendor.hpp"
#include "xgpu/common/device_ids.hpp"

namespace xgpu::backend_opencl {
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
  std::string text = common::uuid_text(uuid);
  // Some drivers list the extension but fill zeros: that identifies nothing.
  if (text.empty()) fail(XGPU_STATUS_NOT_AVAILABLE, "device UUID reported as all zeros");
  return text;
}

std::string device_pci_bus_id(const DeviceRecord& record) {
  std::optional<PciAddress> address = khr_pci_address(record);
  const VendorHooks& hooks = vendor_hooks(record.classification.implementation);
  if (!address && hooks.pci_address != nullptr) {
    address = hooks.pci_address(record.device, record.extensions);
  }
  if (!address) fail(XGPU_STATUS_NOT_AVAILABLE, "device PCI address not reported");
  return common::pci_address_text(*address);
}

}  // namespace xgpu::backend_opencl
