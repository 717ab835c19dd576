// Devices: the count, each one's properties (every DeviceInfo field), selection by selector
// string, the current device, and free memory where the driver tells it.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "common.hpp"

namespace xgpu_python {
namespace {

nb::dict properties(std::size_t index) {
  const xgpu::Device device = device_at(index);
  const xgpu::DeviceInfo& info = device.info();
  nb::dict d;
  d["index"] = index;
  d["description"] = device.describe();
  d["backend"] = info.backend;
  d["platform_name"] = info.platform_name;
  d["platform_vendor"] = info.platform_vendor;
  d["platform_version"] = info.platform_version;
  d["name"] = info.name;
  d["vendor"] = info.vendor;
  d["vendor_id"] = info.vendor_id;
  d["hardware_vendor"] = info.hardware_vendor;
  d["implementation"] = info.implementation;
  d["type"] = info.type_name();
  d["device_version"] = info.device_version;
  d["driver_version"] = info.driver_version;
  d["language_version"] = info.language_version;
  d["global_memory"] = info.global_memory;
  d["max_allocation"] = info.max_allocation;
  d["local_memory"] = info.local_memory;
  d["max_parameter_size"] = info.max_parameter_size;
  d["max_constant_buffer_size"] = info.max_constant_buffer_size;
  d["base_address_alignment"] = info.base_address_alignment;
  d["compute_units"] = info.compute_units;
  d["clock_mhz"] = info.clock_mhz;
  d["max_work_group_size"] = info.max_work_group_size;
  d["max_work_item_sizes"] = nb::make_tuple(
      info.max_work_item_sizes[0], info.max_work_item_sizes[1], info.max_work_item_sizes[2]);
  d["work_group_multiple"] = info.work_group_multiple;
  d["fp16"] = info.fp16;
  d["fp64"] = info.fp64;
  d["ecc"] = info.ecc;
  d["host_unified_memory"] = info.host_unified_memory;
  d["images"] = info.images;
  d["non_uniform_work_groups"] = info.non_uniform_work_groups;
  d["extensions"] = info.extensions;
  d["uuid"] = info.uuid;
  d["pci_bus_id"] = info.pci_bus_id;
  nb::dict extras;
  for (const auto& [key, value] : info.vendor_extras) extras[key.c_str()] = value;
  d["vendor_extras"] = extras;
  nb::dict errors;
  for (const auto& [key, value] : info.query_errors) errors[key.c_str()] = value;
  d["query_errors"] = errors;
  return d;
}

}  // namespace

void bind_devices(nb::module_& m) {
  m.def("device_count", [] { return xgpu::devices().size(); });
  m.def("device_properties", &properties, nb::arg("index"));
  m.def(
      "select", [](const std::string& selector) { return xgpu::select(selector).index(); },
      nb::arg("selector"));
  m.def("current_device", [] { return current_device(); });
  m.def(
      "set_device", [](std::size_t index) { set_current_device(index); }, nb::arg("index"));
  m.def(
      "free_memory", [](std::size_t index) { return device_at(index).free_memory(); },
      nb::arg("index"));
  m.def(
      "describe", [](std::size_t index) { return device_at(index).describe(); }, nb::arg("index"));
}

}  // namespace xgpu_python
