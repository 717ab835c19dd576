// Finding modules: XGPU_BACKEND_PATH first, then the module folder next to libxgpu
// (<libdir>/xgpu, the same in a build tree and an install). Registration is explicit,
// on first use; no global constructors.
#include "registry.hpp"

#include <dirent.h>
#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <set>

#include "log.hpp"
#include "physical.hpp"
#include "selector.hpp"
#include "xgpu/common/settings.hpp"

namespace xgpu::detail {
namespace {

constexpr const char* kModulePrefix = "libxgpu-backend-";
constexpr const char* kModuleSuffix = ".so";

std::string library_folder() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&library_folder), &info) == 0 || !info.dli_fname) return {};
  std::string path = info.dli_fname;
  auto slash = path.rfind('/');
  return slash == std::string::npos ? std::string(".") : path.substr(0, slash);
}

bool is_module_file(const std::string& name) {
  return name.size() > std::char_traits<char>::length(kModulePrefix) + 3 &&
         name.rfind(kModulePrefix, 0) == 0 && name.compare(name.size() - 3, 3, kModuleSuffix) == 0;
}

std::atomic<bool> g_started{false};

}  // namespace

bool Registry::started() noexcept { return g_started.load(); }

const Registry& Registry::instance() {
  static const Registry* registry = new Registry();  // lives until exit: modules stay loaded
  // Also on a thread other than the one that made the registry: the main thread's end is the
  // process's, wherever the registry was made (handle.cpp). Costs a thread-local's guard.
  watch_for_exit();
  return *registry;
}

Registry::Registry() {
  g_started = true;
  search_path_ = common::setting_items(common::Setting::backend_path);
  std::string own = library_folder();
  if (!own.empty()) search_path_.push_back(own + "/" + XGPU_MODULE_SUBDIR);
  for (const auto& folder : search_path_) load_folder(folder);
  // After the drivers registered their own exit-time destructors: see handle.cpp.
  watch_for_exit();
  if (modules_.empty()) {
    BackendReport none;
    none.name = "(none)";
    none.message = "no backend module found; searched: ";
    for (const auto& folder : search_path_) none.message += folder + " ";
    reports_.push_back(none);
    logger("loader").warn("{}", none.message);
  }
  apply_visibility();
}

void Registry::load_folder(const std::string& folder) {
  logger("loader").debug("searching {} for backend modules", folder);
  DIR* dir = opendir(folder.c_str());
  if (!dir) {
    logger("loader").debug("cannot open {}: skipped", folder);
    return;
  }
  std::vector<std::string> files;
  while (dirent* entry = readdir(dir)) {
    if (is_module_file(entry->d_name)) files.push_back(folder + "/" + entry->d_name);
  }
  closedir(dir);
  std::sort(files.begin(), files.end());
  for (const auto& path : files) {
    LoadOutcome outcome = load_module(path);
    if (outcome.module) {
      const std::string& name = outcome.module->name;
      auto same = std::find_if(modules_.begin(), modules_.end(),
                               [&](const auto& m) { return m->name == name; });
      if (same != modules_.end()) {
        // The first folder wins, so XGPU_BACKEND_PATH can override an installed module.
        outcome.report.loaded = false;
        outcome.report.message =
            "skipped: module '" + name + "' already loaded from " + (*same)->path;
        logger("loader").info("{}: {}", path, outcome.report.message);
        reports_.push_back(outcome.report);
        continue;
      }
      add_devices(*outcome.module);
      modules_.push_back(std::move(outcome.module));
    }
    reports_.push_back(outcome.report);
  }
}

void Registry::add_devices(const Module& module) {
  std::uint32_t count = 0;
  if (module.table->device_count(&count) != XGPU_STATUS_SUCCESS) return;
  for (std::uint32_t i = 0; i < count; ++i) {
    xgpu_device raw = nullptr;
    xgpu_status status = module.table->device_get(i, &raw);
    if (status != XGPU_STATUS_SUCCESS) {
      logger("loader").warn("backend {}: device {} unavailable: {}", module.name, i,
                            module.last_error());
      continue;
    }
    auto record = std::make_unique<DeviceRecord>();
    record->module = &module;
    record->raw = raw;
    record->info = read_device_info(module, raw);
    record->global_index = devices_.size();
    logger("loader").debug("device {}: {} ({}, {})", record->global_index, record->info.name,
                           record->info.platform_name, record->info.driver_version);
    devices_.push_back(std::move(record));
  }
}

void Registry::apply_visibility() {
  std::vector<DeviceRecord*> everything;
  for (const auto& device : devices_) everything.push_back(device.get());
  link_aliases(everything);
  std::vector<std::string>& order = order_;
  try {
    order = detail::backend_order(backend_names());
  } catch (const Error& error) {
    visibility_error_ = error;
    for (DeviceRecord* device : everything) device->visible = false;
    return;
  }
  // XGPU_VISIBLE_DEVICES's terms see what select() would see with every device visible.
  std::vector<const DeviceRecord*> all(everything.begin(), everything.end());
  std::vector<const DeviceRecord*> physical;
  for (const DeviceRecord* device : all) {
    if (preferred_alias(*device, order, [](const DeviceRecord&) { return true; }) == device)
      physical.push_back(device);
  }
  std::vector<const DeviceRecord*> chosen = all;
  if (const std::optional<std::string> filter =
          common::read_setting(common::Setting::visible_devices)) {
    try {
      chosen = match_selector_all(*filter, DeviceLists{physical, all}, backend_names(), true);
    } catch (const Error& error) {
      visibility_error_ = error.with_context("while reading XGPU_VISIBLE_DEVICES");
      chosen.clear();
    }
  }
  if (visibility_error_) chosen.clear();
  for (DeviceRecord* device : everything) {
    device->visible = std::find(chosen.begin(), chosen.end(), device) != chosen.end();
  }
  // Numbered in the order the filter's terms name the devices (module order without one).
  auto is_visible = [](const DeviceRecord& candidate) { return candidate.visible; };
  std::map<const Module*, std::size_t> per_module;
  for (const DeviceRecord* chosen_device : chosen) {
    auto* device = const_cast<DeviceRecord*>(chosen_device);
    device->backend_index = per_module[device->module]++;
    visible_backend_.push_back(device);
    device->preferred = preferred_alias(*device, order, is_visible) == device;
    if (device->preferred) {
      device->visible_index = visible_.size();
      visible_.push_back(device);
    }
  }
  for (const DeviceRecord* chosen_device : chosen) {
    auto* device = const_cast<DeviceRecord*>(chosen_device);
    if (!device->preferred)
      device->visible_index = preferred_alias(*device, order, is_visible)->visible_index;
  }
}

const std::vector<const DeviceRecord*>& Registry::visible_devices() const {
  if (visibility_error_) throw *visibility_error_;
  return visible_;
}

const std::vector<std::string>& Registry::backend_order() const {
  if (visibility_error_) throw *visibility_error_;
  return order_;
}

const std::vector<const DeviceRecord*>& Registry::visible_backend_devices() const {
  if (visibility_error_) throw *visibility_error_;
  return visible_backend_;
}

std::vector<const DeviceRecord*> Registry::hidden_devices() const {
  std::vector<const DeviceRecord*> hidden;
  for (const auto& device : devices_) {
    if (!device->visible) hidden.push_back(device.get());
  }
  return hidden;
}

const Module* Registry::module_named(const std::string& name) const {
  for (const auto& module : modules_)
    if (module->name == name) return module.get();
  return nullptr;
}

std::vector<std::string> Registry::backend_names() const {
  std::set<std::string> names = {"opencl", "cuda", "level_zero", "hip"};  // known and planned
  for (const auto& module : modules_) names.insert(module->name);
  return {names.begin(), names.end()};
}

}  // namespace xgpu::detail
