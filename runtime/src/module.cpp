// Loading a backend module and checking it before use (the ABI negotiation), and the one
// way a module status becomes an xgpu::Error.
#include "module.hpp"

#include <string_view>

#include "log.hpp"
#include "registry.hpp"
#include "xgpu/common/dynamic_library.hpp"
#include "xgpu/common/status_names.hpp"

namespace xgpu::detail {

std::string Module::status_name(xgpu_status status) const {
  const char* name = table->status_name ? table->status_name(status) : nullptr;
  // A module that does not know the ABI's own statuses still gets them named.
  if (!name || std::string_view(name) == "UNKNOWN") name = common::abi_status_name(status);
  return name ? name : "UNKNOWN";
}

std::string Module::last_error() const {
  std::string text;
  auto query = [this](char* buffer, std::size_t capacity, std::size_t* size) {
    return table->last_error(buffer, capacity, size);
  };
  if (read_string(query, text) != XGPU_STATUS_SUCCESS) return {};
  return text;
}

namespace {

LoadOutcome refuse(LoadOutcome outcome, std::string reason) {
  outcome.report.message = std::move(reason);
  logger("loader").warn("refused backend module {}: {}", outcome.report.path,
                        outcome.report.message);
  return outcome;
}

std::string file_name(const std::string& path) {
  auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

LoadOutcome load_module(const std::string& path) {
  LoadOutcome outcome;
  outcome.report.path = path;
  outcome.report.name = file_name(path);
  logger("loader").debug("trying backend module {}", path);

  // The one loader of xgpu (RTLD_LOCAL: one module's vendor symbols never resolve
  // another's). A module that passes stays loaded until the process ends: its table and
  // every handle it gave out point into it.
  common::DynamicLibrary library = common::DynamicLibrary::open_path(path);
  if (!library.loaded())
    return refuse(std::move(outcome), "not a loadable module: " + library.why_not());
  auto entry = library.function<xgpu_backend_entry_fn>(XGPU_BACKEND_ENTRY_SYMBOL);
  if (!entry) {
    library.close();
    return refuse(
        std::move(outcome),
        std::string("not an xgpu backend module: it does not export ") + XGPU_BACKEND_ENTRY_SYMBOL);
  }
  const xgpu_backend_v1* table = entry(XGPU_BACKEND_ABI_VERSION);
  if (!table) {
    library.close();
    return refuse(std::move(outcome), "the module cannot serve backend ABI version " +
                                          std::to_string(XGPU_BACKEND_ABI_VERSION));
  }
  if (table->abi_version != XGPU_BACKEND_ABI_VERSION) {
    std::uint32_t version = table->abi_version;
    library.close();
    return refuse(std::move(outcome), "backend ABI version " + std::to_string(version) +
                                          ", but this xgpu speaks version " +
                                          std::to_string(XGPU_BACKEND_ABI_VERSION));
  }
  if (table->struct_size < XGPU_BACKEND_V1_REQUIRED_SIZE) {
    std::uint32_t size = table->struct_size;
    library.close();
    return refuse(std::move(outcome), "its function table is " + std::to_string(size) +
                                          " bytes, shorter than the " +
                                          std::to_string(XGPU_BACKEND_V1_REQUIRED_SIZE) +
                                          " bytes every version-1 module must fill");
  }

  auto module = std::make_unique<Module>();
  module->name = table->name ? table->name : file_name(path);
  module->path = path;
  module->table = table;
  module->host = {sizeof(xgpu_host_v1), XGPU_BACKEND_ABI_VERSION, &module_log_callback,
                  module.get()};
  outcome.report.name = module->name;

  xgpu_status status = table->init(&module->host);
  if (status != XGPU_STATUS_SUCCESS) {
    // The module is sound but found nothing to drive (no driver, no platform): keep it
    // loaded and say why it offers no device.
    outcome.report.loaded = true;
    outcome.report.driver_absent = status == XGPU_STATUS_NOT_AVAILABLE;
    outcome.report.message = module->status_name(status) + ": " + module->last_error();
    logger("loader").info("backend {} offers no device: {}", module->name, outcome.report.message);
    outcome.module = std::move(module);
    return outcome;
  }
  std::uint32_t count = 0;
  status = table->device_count(&count);
  if (status != XGPU_STATUS_SUCCESS) {
    std::string why =
        "device_count failed: " + module->status_name(status) + ": " + module->last_error();
    return refuse(std::move(outcome), std::move(why));
  }
  outcome.report.loaded = true;
  outcome.report.device_count = count;
  if (count == 0) outcome.report.message = "no device found";
  logger("loader").debug("loaded backend {} from {} with {} device(s)", module->name, path, count);
  outcome.module = std::move(module);
  return outcome;
}

Errc errc_of_status(xgpu_status status) noexcept {
  switch (status) {
#define XGPU_BACKEND_STATUS(name, errc) \
  case name:                            \
    return Errc::errc;
#include "xgpu/backend_status.def"
#undef XGPU_BACKEND_STATUS
    default:
      return Errc::backend;
  }
}

Error::Details backend_error_details(const Module& module, xgpu_status status,
                                     const std::string& operation, const DeviceRecord* device) {
  Error::Details details;
  details.code = errc_of_status(status);
  details.call = operation;
  details.native_status = status;
  details.native_name = module.status_name(status);
  std::string why = module.last_error();
  details.message = operation + " failed" + (why.empty() ? "" : ": " + why);
  if (device) details.device = device->info.name;
  return details;
}

void throw_backend_error(const Module& module, xgpu_status status, const std::string& operation,
                         const DeviceRecord* device) {
  throw Error(backend_error_details(module, status, operation, device));
}

}  // namespace xgpu::detail
