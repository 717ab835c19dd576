// The one rule of device kinds and selector words; see xgpu/common/device_kind.hpp.
#include "xgpu/common/device_kind.hpp"

#include <algorithm>
#include <cctype>

#include "xgpu/backend.h"

namespace xgpu::common {
namespace {

bool same_without_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

}  // namespace

// The opencl module classifies Oclgrind's silicon as "simulator" (backends/opencl/classify.cpp).
bool is_simulator(const DeviceKind& device) { return device.hardware_vendor == "simulator"; }

bool is_cpu(const DeviceKind& device) {
  return (device.type_bits & XGPU_TYPE_CPU) != 0 && (device.type_bits & XGPU_TYPE_GPU) == 0 &&
         !is_simulator(device);
}

bool is_gpu(const DeviceKind& device) {
  return (device.type_bits & XGPU_TYPE_GPU) != 0 && !is_simulator(device);
}

bool is_accelerator(const DeviceKind& device) {
  return (device.type_bits & XGPU_TYPE_ACCELERATOR) != 0 && !is_simulator(device);
}

const std::vector<std::string>& selector_type_words() {
  static const std::vector<std::string> words = {"gpu", "cpu", "accelerator", "*"};
  return words;
}

const std::vector<std::string>& selector_vendor_words() {
  static const std::vector<std::string> words = {
      "nvidia", "amd",  "intel",    "arm",       "apple",     "qualcomm", "imagination",
      "mesa",   "pocl", "oclgrind", "simulator", "microsoft", "samsung",  "mali"};
  return words;
}

bool matches_selector_word(std::string_view word, const DeviceKind& device) {
  if (word == "*") return true;
  if (word == "gpu") return is_gpu(device);
  if (word == "cpu") return is_cpu(device);
  if (word == "accelerator") return is_accelerator(device);
  return same_without_case(device.hardware_vendor, word) ||
         same_without_case(device.implementation, word);
}

}  // namespace xgpu::common
