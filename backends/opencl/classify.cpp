// The vendor classification tables and the rules documented in classify.hpp.
#include "classify.hpp"

#include <cctype>

#include "xgpu/backend.h"

namespace xgpu::backend_opencl {
namespace {

struct Needle {
  const char* text;
  const char* vendor;
};

// Matched case-insensitively against "platform_vendor platform_name". Order matters: drivers
// that run on other vendors' hardware come first.
constexpr Needle kImplementationNeedles[] = {
    {"portable computing language", "pocl"},
    {"pocl", "pocl"},
    {"oclgrind", "oclgrind"},
    {"rusticl", "mesa"},
    {"clover", "mesa"},
    {"mesa", "mesa"},
    {"nvidia", "nvidia"},
    {"advanced micro devices", "amd"},
    {"amd", "amd"},
    {"intel", "intel"},
    {"apple", "apple"},
    {"arm", "arm"},
    {"qualcomm", "qualcomm"},
    {"imagination", "imagination"},
    {"powervr", "imagination"},
    {"microsoft", "microsoft"},
    {"xilinx", "xilinx"},
};

// Matched case-sensitively against the device name, then the device vendor.
constexpr Needle kHardwareNeedles[] = {
    {"AuthenticAMD", "amd"},
    {"Advanced Micro Devices", "amd"},
    {"AMD", "amd"},
    {"GenuineIntel", "intel"},
    {"Intel", "intel"},
    {"NVIDIA", "nvidia"},
    {"ARM", "arm"},
    {"Arm", "arm"},
    {"Cortex", "arm"},
    {"Neoverse", "arm"},
    {"Apple", "apple"},
    {"Qualcomm", "qualcomm"},
    {"QUALCOMM", "qualcomm"},
    {"Snapdragon", "qualcomm"},
    {"Adreno", "qualcomm"},
    {"Mali", "arm"},
    {"PowerVR", "imagination"},
    {"Xilinx", "xilinx"},
};

struct VendorId {
  uint64_t id;
  const char* vendor;
};

constexpr VendorId kVendorIds[] = {
    {0x10DE, "nvidia"}, {0x1002, "amd"},         {0x1022, "amd"},
    {0x8086, "intel"},  {0x13B5, "arm"},         {0x5143, "qualcomm"},
    {0x106B, "apple"},  {0x1010, "imagination"}, {0x10EE, "xilinx"},
};

// Implementations that simulate a device rather than drive hardware.
constexpr const char* kSimulators[] = {"oclgrind"};

bool is_word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

std::string lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

// True when `needle` occurs in `haystack` with no letter or digit glued to either end.
bool contains_word(const std::string& haystack, const std::string& needle) {
  for (size_t at = haystack.find(needle); at != std::string::npos;
       at = haystack.find(needle, at + 1)) {
    size_t end = at + needle.size();
    bool starts = at == 0 || !is_word_char(haystack[at - 1]);
    bool ends = end == haystack.size() || !is_word_char(haystack[end]);
    if (starts && ends) return true;
  }
  return false;
}

template <size_t N>
const char* find_needle(const Needle (&needles)[N], const std::string& text) {
  for (const Needle& needle : needles) {
    if (contains_word(text, needle.text)) return needle.vendor;
  }
  return nullptr;
}

std::string implementation_of(const DeviceIdentity& identity) {
  const char* found = find_needle(kImplementationNeedles,
                                  lower(identity.platform_vendor + " " + identity.platform_name));
  return found != nullptr ? found : "unknown";
}

std::string hardware_from_strings(const DeviceIdentity& identity) {
  const char* found = find_needle(kHardwareNeedles, identity.device_name);
  if (found == nullptr) found = find_needle(kHardwareNeedles, identity.device_vendor);
  return found != nullptr ? found : "unknown";
}

std::string hardware_of(const DeviceIdentity& identity, const std::string& implementation) {
  for (const char* simulator : kSimulators) {
    if (implementation == simulator) return "simulator";
  }
  if ((identity.type_bits & XGPU_TYPE_CPU) != 0) return hardware_from_strings(identity);
  for (const VendorId& known : kVendorIds) {
    if (known.id == identity.vendor_id) return known.vendor;
  }
  return hardware_from_strings(identity);
}

}  // namespace

Classification classify_device(const DeviceIdentity& identity) {
  Classification result;
  result.implementation = implementation_of(identity);
  result.hardware_vendor = hardware_of(identity, result.implementation);
  return result;
}

}  // namespace xgpu::backend_opencl
