// Reading and checking profile files.
#include "profile_file.hpp"

#include <fstream>
#include <sstream>

#include "xgpu/common/errors.hpp"

namespace xgpu::profile {
namespace {

using nlohmann::json;

enum class Kind { text, count, flag, counts3, words, object_of_text };

struct Field {
  const char* name;
  Kind kind;
};

// The device object's fields (docs/query-json.md). index, backend and query_errors describe
// where the capture came from, not the device, and are ignored.
constexpr Field kFields[] = {
    {"platform_name", Kind::text},
    {"platform_vendor", Kind::text},
    {"platform_version", Kind::text},
    {"name", Kind::text},
    {"vendor", Kind::text},
    {"vendor_id", Kind::count},
    {"hardware_vendor", Kind::text},
    {"implementation", Kind::text},
    {"type", Kind::words},
    {"device_version", Kind::text},
    {"driver_version", Kind::text},
    {"language_version", Kind::text},
    {"global_memory", Kind::count},
    {"max_allocation", Kind::count},
    {"local_memory", Kind::count},
    {"max_parameter_size", Kind::count},
    {"max_constant_buffer_size", Kind::count},
    {"compute_units", Kind::count},
    {"clock_mhz", Kind::count},
    {"max_work_group_size", Kind::count},
    {"max_work_item_sizes", Kind::counts3},
    {"work_group_multiple", Kind::count},
    {"fp16", Kind::flag},
    {"fp64", Kind::flag},
    {"ecc", Kind::flag},
    {"host_unified_memory", Kind::flag},
    {"images", Kind::flag},
    {"non_uniform_work_groups", Kind::flag},
    {"extensions", Kind::words},
    {"uuid", Kind::text},
    {"pci_bus_id", Kind::text},
    {"vendor_extras", Kind::object_of_text},
};

[[noreturn]] void refuse(const std::string& path, const std::string& field,
                         const std::string& why) {
  common::fail(XGPU_STATUS_INVALID_VALUE,
               "profile " + path + (field.empty() ? "" : ", field \"" + field + "\"") + ": " + why);
}

bool fits(const json& value, Kind kind) {
  switch (kind) {
    case Kind::text:
      return value.is_string();
    case Kind::count:
      return value.is_number_unsigned() ||
             (value.is_number_integer() && value.get<long long>() >= 0);
    case Kind::flag:
      return value.is_boolean();
    case Kind::counts3:
      if (!value.is_array() || value.size() != 3) return false;
      for (const json& item : value)
        if (!fits(item, Kind::count)) return false;
      return true;
    case Kind::words:
      if (!value.is_array()) return false;
      for (const json& item : value)
        if (!item.is_string()) return false;
      return true;
    case Kind::object_of_text:
      if (!value.is_object()) return false;
      for (const auto& item : value.items())
        if (!item.value().is_string()) return false;
      return true;
  }
  return false;
}

const char* kind_text(Kind kind) {
  switch (kind) {
    case Kind::text:
      return "a string";
    case Kind::count:
      return "a non-negative integer";
    case Kind::flag:
      return "true or false";
    case Kind::counts3:
      return "an array of 3 non-negative integers";
    case Kind::words:
      return "an array of strings";
    case Kind::object_of_text:
      return "an object of strings";
  }
  return "?";
}

json device_object(const std::string& path, const json& document) {
  if (!document.is_object()) refuse(path, "", "expected a JSON object");
  if (!document.contains("schema_version"))
    refuse(path, "schema_version",
           "missing: a profile is a device of `xgpu query --json` (schema version " +
               std::to_string(kProfileSchemaVersion) + ")");
  const json& version = document["schema_version"];
  if (!version.is_number_integer() || version.get<long long>() != kProfileSchemaVersion)
    refuse(path, "schema_version",
           "is " + version.dump() + ", but this xgpu reads schema version " +
               std::to_string(kProfileSchemaVersion));
  if (!document.contains("devices")) return document;  // a device object on its own
  const json& devices = document["devices"];
  if (!devices.is_array() || devices.size() != 1 || !devices[0].is_object())
    refuse(path, "devices",
           "a profile holds exactly one device object (capture one with `xgpu query --json -d "
           "N`); this one has " +
               std::to_string(devices.is_array() ? devices.size() : 0));
  return devices[0];
}

std::uint64_t count(const json& device, const char* name) {
  return device[name].get<std::uint64_t>();
}

void check_values(const std::string& path, const json& device) {
  auto nonzero = [&](const char* name) {
    if (device.contains(name) && !device[name].is_null() && count(device, name) == 0)
      refuse(path, name, "is 0, which no device has");
  };
  for (const char* name : {"local_memory", "max_work_group_size", "compute_units", "global_memory",
                           "max_allocation", "work_group_multiple"})
    nonzero(name);
  if (!device.contains("name") || !device["name"].is_string() ||
      device["name"].get<std::string>().empty())
    refuse(path, "name", "missing: a profile must name the device it describes");
  // A dimension may allow more work-items than the whole group (every ROCm device reports
  // 1024 per dimension and 256 per group): both limits apply at launch, as in the driver.
  if (device.contains("max_work_item_sizes") && !device["max_work_item_sizes"].is_null()) {
    const json& items = device["max_work_item_sizes"];
    for (int d = 0; d < 3; ++d) {
      if (items[d].get<std::uint64_t>() == 0)
        refuse(path, "max_work_item_sizes", "dimension " + std::to_string(d) + " is 0");
    }
  }
  if (device.contains("max_allocation") && device.contains("global_memory") &&
      !device["max_allocation"].is_null() && !device["global_memory"].is_null() &&
      count(device, "max_allocation") > count(device, "global_memory"))
    refuse(path, "max_allocation", "is larger than global_memory");
  if (device.contains("type") && !device["type"].is_null()) {
    for (const json& word : device["type"]) {
      const std::string type = word.get<std::string>();
      if (type != "cpu" && type != "gpu" && type != "accelerator")
        refuse(path, "type", "\"" + type + "\" is none of cpu, gpu, accelerator");
    }
  }
}

}  // namespace

ProfileFile read_profile_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) refuse(path, "", "cannot be read");
  std::stringstream text;
  text << in.rdbuf();
  json document;
  try {
    document = json::parse(text.str());
  } catch (const json::exception& error) {  // a syntax error, or a number beyond a double
    refuse(path, "", std::string("not JSON: ") + error.what());
  }
  ProfileFile file;
  file.path = path;
  file.device = device_object(path, document);
  for (const Field& field : kFields) {
    if (!file.device.contains(field.name) || file.device[field.name].is_null()) continue;
    if (!fits(file.device[field.name], field.kind))
      refuse(path, field.name,
             std::string("should be ") + kind_text(field.kind) + ", not " +
                 file.device[field.name].dump());
  }
  check_values(path, file.device);
  return file;
}

}  // namespace xgpu::profile
