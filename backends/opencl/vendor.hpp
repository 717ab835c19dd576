// What the module knows about one driver maker, reached by the implementation key that
// classify_device() returns. Each vendor's knowledge lives in its own vendor_<name>.cpp.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "cl.hpp"
#include "xgpu/common/device_ids.hpp"

namespace xgpu::backend_opencl {

using common::PciAddress;

struct VendorHooks {
  /// "key=value\n" lines from the vendor's own attribute extensions; "" when none.
  std::string (*extras)(cl_device_id device, const std::string& extensions) = nullptr;
  /// The PCI address through the vendor's extension, when cl_khr_pci_bus_info is absent.
  std::optional<PciAddress> (*pci_address)(cl_device_id device,
                                           const std::string& extensions) = nullptr;
  /// Bytes of global memory free now, through the vendor's extension; nullopt when the
  /// driver does not say (never an estimate).
  std::optional<uint64_t> (*free_memory)(cl_device_id device,
                                         const std::string& extensions) = nullptr;
};

const VendorHooks& nvidia_hooks();
const VendorHooks& amd_hooks();
const VendorHooks& intel_hooks();

/// The hooks for an implementation key ("nvidia", "pocl", ...); empty hooks when the module
/// knows nothing special about that driver.
const VendorHooks& vendor_hooks(const std::string& implementation);

}  // namespace xgpu::backend_opencl
