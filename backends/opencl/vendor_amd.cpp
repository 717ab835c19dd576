// AMD's driver (ROCm, the older Orca/PAL ones): board name, gfx target, wavefront width and
// PCI topology through cl_amd_device_attribute_query.
#include <string>
#include <vector>

#include "cl_query.hpp"
#include "vendor.hpp"

namespace xgpu::backend_opencl {
namespace {

constexpr const char* kAttributeQuery = "cl_amd_device_attribute_query";
constexpr cl_uint kTopologyTypePcie = 1;  // CL_DEVICE_TOPOLOGY_TYPE_PCIE_AMD

// cl_device_topology_amd's PCIe view: the type word, padding, then bus, device, function.
struct TopologyPcie {
  cl_uint type;
  cl_char unused[17];
  cl_char bus;
  cl_char device;
  cl_char function;
};
static_assert(sizeof(TopologyPcie) == 24, "cl_device_topology_amd is 24 bytes");

// ROCm names a device by its target id, "gfx90a:sramecc+:xnack-"; older drivers use a
// codename ("Tahiti") that says nothing about the ISA.
std::string gfx_lines(const std::string& device_name) {
  if (device_name.rfind("gfx", 0) != 0) return "";
  std::string target = device_name.substr(0, device_name.find(':'));
  std::string lines = "gfx_target=" + target + "\n";
  if (target != device_name) lines += "target_id=" + device_name + "\n";
  return lines;
}

std::string amd_extras(cl_device_id device, const std::string& extensions) {
  std::string lines = gfx_lines(device_string(device, CL_DEVICE_NAME));
  if (!has_extension(extensions, kAttributeQuery)) return lines;
  lines = "board_name=" + device_string(device, kDeviceBoardNameAmd) + "\n" + lines;
  // Wavefront width is only reported for GPUs; a CPU device rejects the query.
  cl_uint width = 0;
  if (clGetDeviceInfo(device, kDeviceWavefrontWidthAmd, sizeof(width), &width, nullptr) ==
      CL_SUCCESS) {
    lines += "wavefront_width=" + std::to_string(width) + "\n";
  }
  return lines;
}

std::optional<PciAddress> amd_pci_address(cl_device_id device, const std::string& extensions) {
  if (!has_extension(extensions, kAttributeQuery)) return std::nullopt;
  TopologyPcie topology{};
  if (clGetDeviceInfo(device, kDeviceTopologyAmd, sizeof(topology), &topology, nullptr) !=
          CL_SUCCESS ||
      topology.type != kTopologyTypePcie) {
    return std::nullopt;
  }
  PciAddress address;  // the topology has no domain: AMD's drivers only report domain 0
  address.bus = static_cast<unsigned char>(topology.bus);
  address.device = static_cast<unsigned char>(topology.device);
  address.function = static_cast<unsigned char>(topology.function);
  return address;
}

// CL_DEVICE_GLOBAL_FREE_MEMORY_AMD: size_t values in KiB, the first the total free (ROCm
// and PAL add the largest free block as a second).
std::optional<uint64_t> amd_free_memory(cl_device_id device, const std::string& extensions) {
  if (!has_extension(extensions, kAttributeQuery)) return std::nullopt;
  size_t size = 0;
  if (clGetDeviceInfo(device, kDeviceGlobalFreeMemoryAmd, 0, nullptr, &size) != CL_SUCCESS ||
      size < sizeof(size_t)) {
    return std::nullopt;
  }
  std::vector<size_t> kib(size / sizeof(size_t));
  if (clGetDeviceInfo(device, kDeviceGlobalFreeMemoryAmd, kib.size() * sizeof(size_t), kib.data(),
                      nullptr) != CL_SUCCESS) {
    return std::nullopt;
  }
  return static_cast<uint64_t>(kib[0]) * 1024;
}

}  // namespace

const VendorHooks& amd_hooks() {
  static const VendorHooks kHooks{amd_extras, amd_pci_address, amd_free_memory};
  return kHooks;
}

}  // namespace xgpu::backend_opencl
