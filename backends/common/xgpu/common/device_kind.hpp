// What kind of device this is, from what every module reports of it (XGPU_DEVICE_TYPE bits,
// XGPU_DEVICE_HARDWARE_VENDOR, XGPU_DEVICE_IMPLEMENTATION), and what a device selector's words
// match: one rule for the core (its device traits and its selector, runtime/src/util/
// device_traits.cpp and selector.cpp) and for the profile module's choice of a backing device
// (XGPU_PROFILE_BACKING), which cannot include the core.
//
// A simulator (Oclgrind: hardware vendor "simulator") claims to be every type at once, so no
// type word matches it: it is picked by its name, by `*` or by index.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace xgpu::common {

struct DeviceKind {
  std::uint32_t type_bits = 0;       ///< XGPU_TYPE_* bits
  std::string_view hardware_vendor;  ///< "nvidia", ..., "simulator", "unknown"
  std::string_view implementation;   ///< "nvidia", "pocl", "oclgrind", ...
};

bool is_simulator(const DeviceKind& device);
/// The CPU bit without the GPU bit, not a simulator.
bool is_cpu(const DeviceKind& device);
/// The GPU bit, not a simulator.
bool is_gpu(const DeviceKind& device);
/// The accelerator bit, not a simulator.
bool is_accelerator(const DeviceKind& device);

/// The type words of a selector: gpu, cpu, accelerator, *.
const std::vector<std::string>& selector_type_words();
/// The vendor words a selector accepts even where no device of that vendor is present, so that
/// a selector written for another machine parses and simply matches nothing.
const std::vector<std::string>& selector_vendor_words();

/// Whether a selector's word (lower case: a type word, or a vendor or implementation name)
/// matches the device. Any other word matches a device whose hardware vendor or implementation
/// it names, compared without case.
bool matches_selector_word(std::string_view word, const DeviceKind& device);

}  // namespace xgpu::common
