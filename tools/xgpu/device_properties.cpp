// Builds the grouped property list of one device; formatting of numbers is in units.cpp.
#include "device_properties.hpp"

#include <set>

#include "units.hpp"

namespace xgpu::cli {
namespace {

std::string or_not_reported(const std::string& text) {
  return text.empty() ? "not reported" : text;
}

std::string bytes_text(std::uint64_t bytes) {
  return format_bytes(bytes) + " (" + std::to_string(bytes) + " bytes)";
}

std::string item_sizes(const std::array<std::size_t, 3>& sizes) {
  return std::to_string(sizes[0]) + " x " + std::to_string(sizes[1]) + " x " +
         std::to_string(sizes[2]);
}

// Collects properties and puts each failed query's error in place of its value.
class GroupBuilder {
 public:
  explicit GroupBuilder(const DeviceInfo& info) : info_(info) {}

  void begin(std::string title) { groups_.push_back({std::move(title), {}}); }

  void add(std::string key, std::string label, std::string value) {
    Property property{std::move(key), std::move(label), std::move(value), false};
    const auto error = info_.query_errors.find(property.key);
    if (error != info_.query_errors.end()) {
      property.value = "error: " + error->second;
      property.failed = true;
      shown_errors_.insert(property.key);
    }
    groups_.back().properties.push_back(std::move(property));
  }

  std::vector<PropertyGroup> finish() {
    PropertyGroup leftovers{"query errors", {}};
    for (const auto& [key, message] : info_.query_errors) {
      if (shown_errors_.count(key) == 0) {
        leftovers.properties.push_back({key, key, "error: " + message, true});
      }
    }
    if (!leftovers.properties.empty()) groups_.push_back(std::move(leftovers));
    return std::move(groups_);
  }

 private:
  const DeviceInfo& info_;
  std::vector<PropertyGroup> groups_;
  std::set<std::string> shown_errors_;
};

}  // namespace

std::vector<PropertyGroup> device_properties(const DeviceInfo& info, std::size_t index,
                                             std::optional<std::uint64_t> free_memory) {
  GroupBuilder g(info);

  g.begin("identity");
  g.add("index", "Index", std::to_string(index));
  g.add("backend", "Backend", info.backend);
  g.add("name", "Name", info.name);
  g.add("type", "Type", info.type_name());
  g.add("vendor", "Vendor (as reported)", info.vendor);
  g.add("vendor_id", "Vendor id", hex32(info.vendor_id));
  g.add("hardware_vendor", "Hardware vendor", info.hardware_vendor);
  g.add("implementation", "Implementation", info.implementation);
  g.add("platform_name", "Platform", info.platform_name);
  g.add("platform_vendor", "Platform vendor", info.platform_vendor);
  g.add("platform_version", "Platform version", info.platform_version);
  g.add("device_version", "Device version", info.device_version);
  g.add("driver_version", "Driver version", info.driver_version);
  g.add("language_version", "OpenCL C version", info.language_version);
  g.add("uuid", "UUID", or_not_reported(info.uuid));
  g.add("pci_bus_id", "PCI bus id", or_not_reported(info.pci_bus_id));

  g.begin("compute");
  g.add("compute_units", "Compute units", std::to_string(info.compute_units));
  g.add("clock_mhz", "Clock", human_mhz(info.clock_mhz));
  g.add("max_work_group_size", "Max work-group size", std::to_string(info.max_work_group_size));
  g.add("max_work_item_sizes", "Max work-item sizes", item_sizes(info.max_work_item_sizes));
  g.add("work_group_multiple", "Work-group multiple", std::to_string(info.work_group_multiple));
  g.add("non_uniform_work_groups", "Non-uniform work-groups", yes_no(info.non_uniform_work_groups));
  g.add("max_parameter_size", "Max parameter size", bytes_text(info.max_parameter_size));

  g.begin("memory");
  g.add("global_memory", "Global memory", bytes_text(info.global_memory));
  g.add("free_memory", "Free memory",
        free_memory ? bytes_text(*free_memory) : std::string("not reported"));
  g.add("max_allocation", "Max allocation", bytes_text(info.max_allocation));
  g.add("local_memory", "Local memory", bytes_text(info.local_memory));
  g.add("max_constant_buffer_size", "Max constant buffer",
        bytes_text(info.max_constant_buffer_size));
  g.add("host_unified_memory", "Host-unified memory", yes_no(info.host_unified_memory));
  g.add("ecc", "ECC", yes_no(info.ecc));
  g.add("images", "Images", yes_no(info.images));

  g.begin("precision");
  g.add("fp16", "Half (fp16)", yes_no(info.fp16));
  g.add("fp64", "Double (fp64)", yes_no(info.fp64));

  g.begin("extensions");
  g.add("extensions", "Count", std::to_string(info.extensions.size()));
  for (const std::string& extension : info.extensions) g.add("", "", extension);

  if (!info.vendor_extras.empty()) {
    g.begin("vendor extras");
    for (const auto& [key, value] : info.vendor_extras) g.add("vendor_extras." + key, key, value);
  }
  return g.finish();
}

}  // namespace xgpu::cli
