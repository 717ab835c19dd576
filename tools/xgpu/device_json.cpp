// Builds the JSON of backends and devices; the field names are the DeviceInfo members.
#include "device_json.hpp"

#include <xgpu/version.hpp>

namespace xgpu::cli {
namespace {

Json type_list(std::uint32_t type) {
  Json names = Json::array();
  if (type & DeviceType::cpu) names.push_back("cpu");
  if (type & DeviceType::gpu) names.push_back("gpu");
  if (type & DeviceType::accelerator) names.push_back("accelerator");
  return names;
}

Json string_or_null(const std::string& text) { return text.empty() ? Json(nullptr) : Json(text); }

}  // namespace

Json device_json(const DeviceInfo& info, std::size_t index) {
  Json extras = Json::object();
  for (const auto& [key, value] : info.vendor_extras) extras[key] = value;

  Json out = {
      {"index", index},
      {"backend", info.backend},
      {"selector", nullptr},
      {"preferred", true},
      {"platform_name", info.platform_name},
      {"platform_vendor", info.platform_vendor},
      {"platform_version", info.platform_version},
      {"name", info.name},
      {"vendor", info.vendor},
      {"vendor_id", info.vendor_id},
      {"hardware_vendor", info.hardware_vendor},
      {"implementation", info.implementation},
      {"type", type_list(info.type)},
      {"device_version", info.device_version},
      {"driver_version", info.driver_version},
      {"language_version", info.language_version},
      {"global_memory", info.global_memory},
      {"max_allocation", info.max_allocation},
      {"local_memory", info.local_memory},
      {"max_parameter_size", info.max_parameter_size},
      {"max_constant_buffer_size", info.max_constant_buffer_size},
      {"compute_units", info.compute_units},
      {"clock_mhz", info.clock_mhz},
      {"max_work_group_size", info.max_work_group_size},
      {"max_work_item_sizes", info.max_work_item_sizes},
      {"work_group_multiple", info.work_group_multiple},
      {"fp16", info.fp16},
      {"fp64", info.fp64},
      {"ecc", info.ecc},
      {"host_unified_memory", info.host_unified_memory},
      {"images", info.images},
      {"non_uniform_work_groups", info.non_uniform_work_groups},
      {"extensions", info.extensions},
      {"uuid", string_or_null(info.uuid)},
      {"pci_bus_id", string_or_null(info.pci_bus_id)},
      {"physical_id", nullptr},
      {"aliases", Json::array()},
      {"vendor_extras", extras},
      {"query_errors", Json::object()},
  };
  for (const auto& [key, message] : info.query_errors) {
    out["query_errors"][key] = message;
    // A value that could not be read is null rather than a default that looks real.
    if (out.contains(key) && key != "query_errors") out[key] = nullptr;
  }
  return out;
}

Json probe_json(const std::vector<ProbeCheck>& checks) {
  // Flags become booleans and sizes integers, as everywhere else in the document.
  auto typed = [](const std::string& text) -> Json {
    if (text == "yes" || text == "no") return text == "yes";
    return std::stoull(text);
  };
  Json out = Json::object();
  for (const ProbeCheck& check : checks) {
    out[check.name] = {{"advertised", typed(check.advertised)},
                       {"observed", check.tested ? typed(check.observed) : Json(nullptr)},
                       {"agrees", check.agrees()},
                       {"detail", check.detail}};
  }
  return out;
}

Json backend_json(const BackendReport& report) {
  return {{"name", report.name},
          {"path", report.path},
          {"loaded", report.loaded},
          {"device_count", report.device_count},
          {"message", report.message}};
}

Json device_json(const Device& device) {
  Json out = device_json(device.info(), device.index());
  out["selector"] = device.selector();
  out["preferred"] = devices()[device.index()] == device;
  out["physical_id"] = string_or_null(device.physical_id());
  for (const Device& alias : device.aliases()) out["aliases"].push_back(alias.selector());
  return out;
}

Json query_json(const std::vector<BackendReport>& backends, const std::vector<Device>& devices) {
  Json out = {{"schema_version", kQuerySchemaVersion},
              {"xgpu_version", version()},
              {"backends", Json::array()},
              {"devices", Json::array()}};
  for (const auto& report : backends) out["backends"].push_back(backend_json(report));
  for (const auto& device : devices) out["devices"].push_back(device_json(device));
  return out;
}

std::string dump_json(const Json& document) {
  return document.dump(2, ' ', false, Json::error_handler_t::replace);
}

}  // namespace xgpu::cli
