// The one dispatch from an implementation key to its vendor file.
#include "vendor.hpp"

namespace xgpu::backend_opencl {
namespace {

struct VendorEntry {
  const char* implementation;
  const VendorHooks& (*hooks)();
};

constexpr VendorEntry kVendors[] = {
    {"nvidia", nvidia_hooks},
    {"amd", amd_hooks},
    {"intel", intel_hooks},
};

}  // namespace

const VendorHooks& vendor_hooks(const std::string& implementation) {
  for (const VendorEntry& entry : kVendors) {
    if (implementation == entry.implementation) return entry.hooks();
  }
  static const VendorHooks kNone;
  return kNone;
}

}  // namespace xgpu::backend_opencl
