// Identifiers that tie an OpenCL device to the same device seen through another API:
// its UUID and its PCI address. Both throw Failure(XGPU_STATUS_NOT_AVAILABLE) when unknown.
#pragma once

#include <string>

#include "registry.hpp"

namespace xgpu::backend_opencl {

/// 32 lowercase hex digits, through cl_khr_device_uuid.
std::string device_uuid(const DeviceRecord& record);

/// "dddd:bb:dd.f", through cl_khr_pci_bus_info or the vendor's own extension.
std::string device_pci_bus_id(const DeviceRecord& record);

}  // namespace xgpu::backend_opencl
