// Making the profile devices from the environment, and finding their backing devices.
#include "profile_devices.hpp"

#include <cctype>
#include <cstdlib>
#include <deque>
#include <sstream>

#include "device_info_entry.hpp"
#include "inner_module.hpp"
#include "xgpu/common/device_kind.hpp"
#include "xgpu/common/errors.hpp"
#include "xgpu/common/log.hpp"
#include "xgpu/common/settings.hpp"
#include "xgpu/common/shipped_profiles.hpp"

namespace xgpu::profile {
namespace {

// A deque: device handles point at the records, which must never move.
std::deque<ProfileDevice> g_devices;

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find(separator, start);
    if (end == std::string::npos) end = text.size();
    if (end > start) parts.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return parts;
}

std::string inner_text(xgpu_device device, std::uint32_t property) {
  char buffer[512] = {};
  std::size_t size = 0;
  if (inner().device_info(device, property, buffer, sizeof buffer, &size) != XGPU_STATUS_SUCCESS)
    return {};
  return buffer;
}

std::uint64_t inner_type(xgpu_device device) {
  std::uint64_t type = 0;
  std::size_t size = 0;
  inner().device_info(device, XGPU_DEVICE_TYPE, &type, sizeof type, &size);
  return type;
}

bool all_digits(const std::string& text) {
  return !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
}

// A small selector over the inner module's devices only: "cpu", "gpu", "accelerator", "*", an
// implementation or hardware vendor ("pocl", "oclgrind", "intel"), each with an optional ":N",
// or a plain index among the opencl module's devices. An "opencl:" prefix is allowed. What a
// word matches is the core selector's rule (xgpu/common/device_kind.hpp): no type word matches
// a simulator, so "cpu" never picks Oclgrind, which claims every type at once.
bool matches(xgpu_device device, const std::string& what) {
  const std::string vendor = inner_text(device, XGPU_DEVICE_HARDWARE_VENDOR);
  const std::string implementation = inner_text(device, XGPU_DEVICE_IMPLEMENTATION);
  return common::matches_selector_word(
      what, {static_cast<std::uint32_t>(inner_type(device)), vendor, implementation});
}

xgpu_device select_backing(const std::string& selector) {
  std::uint32_t count = 0;
  inner().device_count(&count);
  std::vector<xgpu_device> devices(count);
  for (std::uint32_t i = 0; i < count; ++i) inner().device_get(i, &devices[i]);
  // The default backing: the first CPU device (simulating on a simulator would be ~1000 times
  // slower).
  if (selector.empty()) {
    for (xgpu_device device : devices)
      if (matches(device, "cpu")) return device;
  }
  std::vector<std::string> parts = split(selector, ':');
  if (!parts.empty() && parts[0] == "opencl") parts.erase(parts.begin());
  std::size_t skip = 0;
  std::string what = parts.empty() ? "*" : parts[0];
  for (char& c : what) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (parts.size() == 1 && all_digits(what)) {
    skip = std::stoul(what);
    what = "*";
  } else if (parts.size() == 2 && all_digits(parts[1])) {
    skip = std::stoul(parts[1]);
  } else if (parts.size() > 1) {
    common::fail(XGPU_STATUS_INVALID_VALUE, "XGPU_PROFILE_BACKING=" + selector +
                                                ": expected cpu, gpu, accelerator, *, a vendor "
                                                "or implementation (pocl), each with :N, or N");
  }
  for (xgpu_device device : devices) {
    if (!matches(device, what)) continue;
    if (skip-- == 0) return device;
  }
  std::string names;
  for (std::uint32_t i = 0; i < count; ++i)
    names += "\n  " + std::to_string(i) + ": " + inner_text(devices[i], XGPU_DEVICE_NAME);
  common::fail(XGPU_STATUS_INVALID_VALUE,
               "XGPU_PROFILE_BACKING=" +
                   (selector.empty() ? std::string("(unset: the first CPU device)") : selector) +
                   " matches no device of the opencl module, which has:" +
                   (names.empty() ? std::string(" none") : names));
}

// The profile's values over the backing's.
DeviceCaps profile_caps(const nlohmann::json& device, const DeviceCaps& backing) {
  DeviceCaps caps = backing;
  auto has = [&](const char* name) { return device.contains(name) && !device[name].is_null(); };
  auto take = [&](const char* name, std::uint64_t& out) {
    if (has(name)) out = device[name].get<std::uint64_t>();
  };
  auto take_flag = [&](const char* name, bool& out) {
    if (has(name)) out = device[name].get<bool>();
  };
  caps.name = device["name"].get<std::string>();
  take("max_work_group_size", caps.max_work_group_size);
  if (has("max_work_item_sizes"))
    for (int d = 0; d < 3; ++d)
      caps.max_work_item_sizes[d] = device["max_work_item_sizes"][d].get<std::uint64_t>();
  take("local_memory", caps.local_memory);
  take("max_allocation", caps.max_allocation);
  take("global_memory", caps.global_memory);
  take("max_parameter_size", caps.max_parameter_size);
  take("max_constant_buffer_size", caps.max_constant_buffer);
  take_flag("fp16", caps.fp16);
  take_flag("fp64", caps.fp64);
  take_flag("images", caps.images);
  take_flag("non_uniform_work_groups", caps.non_uniform_work_groups);
  if (has("extensions")) {
    caps.extensions.clear();
    for (const auto& word : device["extensions"]) caps.extensions.insert(word.get<std::string>());
  }
  // A version text without "OpenCL C <major>.<minor>" limits nothing: the backing's stands.
  if (has("language_version")) {
    const drivers::Version language =
        drivers::opencl_c_version(device["language_version"].get<std::string>());
    if (!language.empty()) caps.language = language;
  }
  if (has("device_version"))
    caps.language = drivers::newest_opencl_c(
        caps.language, drivers::opencl_version(device["device_version"].get<std::string>()));
  return caps;
}

std::string joined(const std::vector<std::string>& words) {
  std::string text;
  for (const auto& word : words) text += (text.empty() ? "" : ", ") + word;
  return text;
}

}  // namespace

std::string resolve_profile_path(const std::string& entry) {
  const bool bare = entry.find('/') == std::string::npos &&
                    (entry.size() < 5 || entry.compare(entry.size() - 5, 5, ".json") != 0);
  if (!bare) return entry;
  if (auto path = common::find_shipped_profile(entry)) return *path;
  std::string dirs;
  for (const auto& dir : common::shipped_profile_dirs()) dirs += " " + dir;
  common::fail(XGPU_STATUS_INVALID_VALUE,
               "profile \"" + entry + "\": no shipped profile of that name (searched:" + dirs +
                   "); a file path needs a '/' or a .json ending");
}

void load_profiles() {
  const std::string backing_selector = common::setting_text(common::Setting::profile_backing);
  std::deque<ProfileDevice> devices;
  for (const std::string& entry : common::setting_items(common::Setting::profile)) {
    ProfileDevice& device = devices.emplace_back();
    device.file = read_profile_file(resolve_profile_path(entry));
    device.backing = select_backing(backing_selector);
    device.backing_caps = read_backing_caps(device.backing);
    device.caps = profile_caps(device.file.device, device.backing_caps);
    device.inherited = inherited_fields(device.file.device);
    device.label = "this device (profile of " + device.caps.name + ")";
    XGPU_LOG_DEBUGF("profile %zu: %s from %s, backed by %s; from the backing device: %s",
                    devices.size() - 1, device.caps.name.c_str(), device.file.path.c_str(),
                    device.backing_caps.name.c_str(),
                    device.inherited.empty() ? "nothing" : joined(device.inherited).c_str());
  }
  g_devices.swap(devices);
}

std::size_t profile_count() { return g_devices.size(); }

ProfileDevice& profile_at(std::size_t index) {
  if (index >= g_devices.size())
    common::fail(XGPU_STATUS_INVALID_VALUE,
                 "device index " + std::to_string(index) +
                     " out of range: " + std::to_string(g_devices.size()) + " profile(s)");
  return g_devices[index];
}

ProfileDevice& profile_of(xgpu_device device) {
  for (ProfileDevice& candidate : g_devices)
    if (reinterpret_cast<xgpu_device>(&candidate) == device) return candidate;
  common::fail(XGPU_STATUS_INVALID_VALUE, "not a device of the profile module (use device_get)");
}

}  // namespace xgpu::profile
