// The public face of the registry: devices(), select(), backends() and Device itself.
#include "xgpu/device.hpp"

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <mutex>

#include "internals.hpp"
#include "module.hpp"
#include "registry.hpp"
#include "selector.hpp"
#include "xgpu/common/settings.hpp"

namespace xgpu {

bool DeviceInfo::has_extension(std::string_view name) const {
  return std::find(extensions.begin(), extensions.end(), name) != extensions.end();
}

std::string DeviceInfo::type_name() const {
  std::string text;
  auto add = [&](std::uint32_t bit, const char* word) {
    if (type & bit) text += (text.empty() ? "" : "|") + std::string(word);
  };
  add(DeviceType::gpu, "gpu");
  add(DeviceType::cpu, "cpu");
  add(DeviceType::accelerator, "accelerator");
  return text.empty() ? "unknown" : text;
}

namespace {

const detail::DeviceRecord& record_of(const Device& device) {
  if (!detail::Internals::record(device)) {
    throw Error(Errc::invalid_handle, "this Device is empty (default-constructed)", "Device");
  }
  return *detail::Internals::record(device);
}

std::vector<const detail::DeviceRecord*> visible() {
  return detail::Registry::instance().visible_devices();
}

std::string effective_selector(std::string_view selector) {
  if (!selector.empty()) return std::string(selector);
  std::string from_environment = common::setting_text(common::Setting::device);
  if (!from_environment.empty()) return from_environment;
  return detail::kDefaultSelector;
}

}  // namespace

const DeviceInfo& Device::info() const { return record_of(*this).info; }

std::size_t Device::index() const { return record_of(*this).visible_index; }

std::optional<std::uint64_t> Device::free_memory() const {
  const auto& record = record_of(*this);
  const detail::Module& module = *record.module;
  std::uint64_t value = 0;
  std::size_t size = 0;
  xgpu_status status =
      module.table->device_info(record.raw, XGPU_DEVICE_FREE_MEM, &value, sizeof value, &size);
  if (status == XGPU_STATUS_SUCCESS && size == sizeof value) return value;
  // NOT_AVAILABLE: not reported; INVALID_VALUE: a module older than the property.
  if (status == XGPU_STATUS_SUCCESS || status == XGPU_STATUS_NOT_AVAILABLE ||
      status == XGPU_STATUS_INVALID_VALUE || status == XGPU_STATUS_UNSUPPORTED) {
    return std::nullopt;
  }
  detail::throw_backend_error(module, status, "Device::free_memory", &record);
}

std::string Device::selector() const {
  const auto& record = record_of(*this);
  return record.info.backend + ":" + std::to_string(record.backend_index);
}

std::string Device::describe() const {
  const auto& record = record_of(*this);
  return selector() + " " + record.info.name + " (" + record.info.implementation + ")";
}

std::string Device::physical_id() const { return record_of(*this).physical_id; }

std::vector<Device> Device::aliases() const {
  std::vector<Device> list;
  for (const auto* alias : record_of(*this).aliases) {
    if (alias->visible) list.push_back(detail::Internals::device(alias));
  }
  return list;
}

bool Device::is_alias_of(const Device& other) const {
  const auto& aliases = record_of(*this).aliases;
  return std::find(aliases.begin(), aliases.end(), detail::Internals::record(other)) !=
         aliases.end();
}

std::vector<Device> devices() {
  std::vector<Device> list;
  for (const auto* record : visible()) list.push_back(detail::Internals::device(record));
  return list;
}

std::vector<Device> backend_devices() {
  std::vector<Device> list;
  for (const auto* record : detail::Registry::instance().visible_backend_devices())
    list.push_back(detail::Internals::device(record));
  return list;
}

std::vector<HiddenDevice> hidden_devices() {
  std::vector<HiddenDevice> list;
  for (const auto* record : detail::Registry::instance().hidden_devices()) {
    list.push_back(HiddenDevice{record->global_index, record->info});
  }
  return list;
}

std::vector<Device> select_all(std::string_view selector) {
  const auto& registry = detail::Registry::instance();
  std::vector<Device> list;
  const detail::DeviceLists lists{registry.visible_devices(), registry.visible_backend_devices()};
  for (const auto* record :
       detail::match_selector_all(effective_selector(selector), lists, registry.backend_names())) {
    list.push_back(detail::Internals::device(record));
  }
  return list;
}

std::optional<Device> find(std::string_view selector) {
  auto matches = select_all(selector);
  if (matches.empty()) return std::nullopt;
  return matches.front();
}

Device select(std::string_view selector) {
  std::string text = effective_selector(selector);
  if (auto device = find(text)) return *device;
  std::string message = "no device matches selector '" + text + "'";
  if (selector.empty() && !common::setting_text(common::Setting::device).empty())
    message += " (from XGPU_DEVICE)";
  auto count = visible().size();
  message += count == 0 ? "; no device is visible at all (run `xgpu query`)"
                        : "; " + std::to_string(count) + " device(s) visible (run `xgpu query`)";
  throw Error(Errc::no_device, message, "select");
}

std::vector<BackendReport> backends() { return detail::Registry::instance().reports(); }

std::vector<std::string> backend_order() { return detail::Registry::instance().backend_order(); }

std::vector<std::string> backend_search_path() {
  return detail::Registry::instance().search_path();
}

}  // namespace xgpu
