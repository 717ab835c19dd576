// Intel's drivers (compute-runtime for GPUs, the CPU runtime): sub-group sizes through
// cl_intel_required_subgroup_size. Their PCI address comes through cl_khr_pci_bus_info.
#include <cstring>
#include <string>
#include <vector>

#include "cl_query.hpp"
#include "vendor.hpp"

namespace xgpu::backend_opencl {
namespace {

std::string intel_extras(cl_device_id device, const std::string& extensions) {
  if (!has_extension(extensions, "cl_intel_required_subgroup_size")) return "";
  std::vector<unsigned char> bytes = device_bytes(device, kDeviceSubGroupSizesIntel);
  std::vector<size_t> sizes(bytes.size() / sizeof(size_t));
  if (sizes.empty()) return "";
  std::memcpy(sizes.data(), bytes.data(), sizes.size() * sizeof(size_t));
  std::string list;
  for (size_t size : sizes) list += (list.empty() ? "" : ",") + std::to_string(size);
  return "sub_group_sizes=" + list + "\n";
}

}  // namespace

const VendorHooks& intel_hooks() {
  static const VendorHooks kHooks{intel_extras, nullptr};
  return kHooks;
}

}  // namespace xgpu::backend_opencl
