// How a device's identity is written, once for every module, so that one GPU seen through two
// modules (NVIDIA's OpenCL and CUDA) shows the very same UUID and PCI address text.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace xgpu::common {

/// A PCI address as the drivers report it.
struct PciAddress {
  uint32_t domain = 0;
  uint32_t bus = 0;
  uint32_t device = 0;
  uint32_t function = 0;
};

/// "dddd:bb:dd.f", lowercase hex (XGPU_DEVICE_PCI_BUS_ID).
std::string pci_address_text(const PciAddress& address);

/// 32 lowercase hex digits of a 16-byte UUID (XGPU_DEVICE_UUID); "" when every byte is zero,
/// which some drivers report and which identifies nothing.
std::string uuid_text(const unsigned char (&uuid)[16]);

}  // namespace xgpu::common
