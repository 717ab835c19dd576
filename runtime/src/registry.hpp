// The process-wide registry: modules found on the search path, their devices, which of them
// are one physical device (aliases), and which XGPU_VISIBLE_DEVICES leaves visible. Built on
// first use, lives until exit.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "module.hpp"
#include "xgpu/device.hpp"
#include "xgpu/error.hpp"

namespace xgpu::detail {

struct DeviceRecord {
  const Module* module = nullptr;
  xgpu_device raw = nullptr;
  DeviceInfo info;
  std::size_t global_index = 0;  ///< among all devices of all modules
  /// Position in devices() (one per physical device) of this device or, for an alias that
  /// selectors without a backend do not see, of the alias they see; meaningful when visible.
  std::size_t visible_index = 0;
  std::size_t backend_index = 0;  ///< N of "backend:N": among its module's visible devices
  bool visible = true;
  /// Whether selectors without a backend see this device (the preferred visible alias).
  bool preferred = true;
  /// The same physical device through other modules (never this one's), visible or not.
  std::vector<const DeviceRecord*> aliases;
  /// "uuid:<32 hex>", else "pci:dddd:bb:dd.f", else empty (never an alias of anything).
  std::string physical_id;
};

class Registry {
 public:
  static const Registry& instance();
  /// Whether instance() has begun building the registry (modules loaded, devices read):
  /// settings read at that point (XGPU_PROFILE, ...) can no longer change.
  static bool started() noexcept;

  /// Visible devices, one per physical device (its preferred alias); throws the stored error
  /// when XGPU_VISIBLE_DEVICES or XGPU_BACKEND_ORDER did not parse.
  const std::vector<const DeviceRecord*>& visible_devices() const;
  /// Every visible device of every module, aliases included, in module order; throws as
  /// visible_devices() does.
  const std::vector<const DeviceRecord*>& visible_backend_devices() const;
  /// The backend order in effect (XGPU_BACKEND_ORDER or the default); throws as
  /// visible_devices() does.
  const std::vector<std::string>& backend_order() const;
  /// Every device with visible == false, in backend order.
  std::vector<const DeviceRecord*> hidden_devices() const;
  const std::vector<BackendReport>& reports() const { return reports_; }
  const std::vector<std::string>& search_path() const { return search_path_; }
  std::vector<std::string> backend_names() const;
  /// The loaded module of that name, or nullptr.
  const Module* module_named(const std::string& name) const;

 private:
  Registry();
  void load_folder(const std::string& folder);
  void add_devices(const Module& module);
  void apply_visibility();

  std::vector<std::string> search_path_;
  std::vector<std::unique_ptr<Module>> modules_;
  std::vector<BackendReport> reports_;
  std::vector<std::unique_ptr<DeviceRecord>> devices_;
  std::vector<const DeviceRecord*> visible_;          ///< one per physical device
  std::vector<const DeviceRecord*> visible_backend_;  ///< aliases included
  std::vector<std::string> order_;                    ///< first preferred
  std::optional<Error> visibility_error_;
};

/// Reads every property of a device through its module; failures land in query_errors.
DeviceInfo read_device_info(const Module& module, xgpu_device device);

}  // namespace xgpu::detail
