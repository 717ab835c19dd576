// The text of a device's PCI address and UUID (see xgpu/common/device_ids.hpp).
#include "xgpu/common/device_ids.hpp"

#include <cstdio>

namespace xgpu::common {

std::string pci_address_text(const PciAddress& address) {
  char text[32];
  std::snprintf(text, sizeof(text), "%04x:%02x:%02x.%x", address.domain, address.bus,
                address.device, address.function);
  return text;
}

std::string uuid_text(const unsigned char (&uuid)[16]) {
  char text[2 * 16 + 1];
  bool all_zero = true;
  for (size_t i = 0; i < 16; ++i) {
    std::snprintf(text + 2 * i, 3, "%02x", uuid[i]);
    all_zero = all_zero && uuid[i] == 0;
  }
  return all_zero ? std::string() : std::string(text);
}

}  // namespace xgpu::common
