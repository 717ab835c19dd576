// NVIDIA's driver: compute capability, warp size and PCI address through
// cl_nv_device_attribute_query.
#include <string>

#include "cl_query.hpp"
#include "vendor.hpp"

namespace xgpu::backend_opencl {
namespace {

constexpr const char* kAttributeQuery = "cl_nv_device_attribute_query";

std::string nvidia_extras(cl_device_id device, const std::string& extensions) {
  if (!has_extension(extensions, kAttributeQuery)) return "";
  cl_uint major = device_scalar<cl_uint>(device, kDeviceComputeCapMajorNv);
  cl_uint minor = device_scalar<cl_uint>(device, kDeviceComputeCapMinorNv);
  cl_uint warp = device_scalar<cl_uint>(device, kDeviceWarpSizeNv);
  return "compute_capability=" + std::to_string(major) + "." + std::to_string(minor) +
         "\nwarp_size=" + std::to_string(warp) + "\n";
}

std::optional<PciAddress> nvidia_pci_address(cl_device_id device, const std::string& extensions) {
  if (!has_extension(extensions, kAttributeQuery)) return std::nullopt;
  PciAddress address;
  address.bus = device_scalar<cl_uint>(device, kDevicePciBusIdNv);
  // The slot id packs device and function the way PCI config space does.
  cl_uint slot = device_scalar<cl_uint>(device, kDevicePciSlotIdNv);
  address.device = slot >> 3;
  address.function = slot & 7;
  // The domain query is newer than the others; older drivers reject it, meaning domain 0.
  cl_uint domain = 0;
  if (clGetDeviceInfo(device, kDevicePciDomainIdNv, sizeof(domain), &domain, nullptr) ==
      CL_SUCCESS) {
    address.domain = domain;
  }
  return address;
}

}  // namespace

const VendorHooks& nvidia_hooks() {
  static const VendorHooks kHooks{nvidia_extras, nvidia_pci_address};
  return kHooks;
}

}  // namespace xgpu::backend_opencl
