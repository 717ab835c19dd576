// Answering device_info() for a profile device.
#include "device_info_entry.hpp"

#include "inner_module.hpp"
#include "profile_devices.hpp"
#include "xgpu/common/errors.hpp"
#include "xgpu/common/out_param.hpp"

namespace xgpu::profile {
namespace {

using nlohmann::json;

enum class Shape { text, count, flag, counts3, words, type_bits, extras, identity };

struct Property {
  std::uint32_t id;
  const char* field;  ///< in the query schema
  Shape shape;
};

// uuid and pci_bus_id are never reported, neither the backing device's nor the file's (a
// capture of a real GPU holds that GPU's): a simulated device is a device of its own, and the
// core makes devices with one identity aliases of each other (docs/backends.md).
constexpr Property kProperties[] = {
    {XGPU_DEVICE_NAME, "name", Shape::text},
    {XGPU_DEVICE_VENDOR, "vendor", Shape::text},
    {XGPU_DEVICE_VENDOR_ID, "vendor_id", Shape::count},
    {XGPU_DEVICE_TYPE, "type", Shape::type_bits},
    {XGPU_DEVICE_VERSION, "device_version", Shape::text},
    {XGPU_DEVICE_DRIVER_VERSION, "driver_version", Shape::text},
    {XGPU_DEVICE_LANGUAGE_VERSION, "language_version", Shape::text},
    {XGPU_DEVICE_GLOBAL_MEM, "global_memory", Shape::count},
    {XGPU_DEVICE_MAX_ALLOC, "max_allocation", Shape::count},
    {XGPU_DEVICE_LOCAL_MEM, "local_memory", Shape::count},
    {XGPU_DEVICE_COMPUTE_UNITS, "compute_units", Shape::count},
    {XGPU_DEVICE_CLOCK_MHZ, "clock_mhz", Shape::count},
    {XGPU_DEVICE_MAX_WORK_GROUP, "max_work_group_size", Shape::count},
    {XGPU_DEVICE_MAX_WORK_ITEMS, "max_work_item_sizes", Shape::counts3},
    {XGPU_DEVICE_WORK_GROUP_MULTIPLE, "work_group_multiple", Shape::count},
    {XGPU_DEVICE_FP16, "fp16", Shape::flag},
    {XGPU_DEVICE_FP64, "fp64", Shape::flag},
    {XGPU_DEVICE_ECC, "ecc", Shape::flag},
    {XGPU_DEVICE_HOST_UNIFIED, "host_unified_memory", Shape::flag},
    {XGPU_DEVICE_IMAGES, "images", Shape::flag},
    {XGPU_DEVICE_EXTENSIONS, "extensions", Shape::words},
    {XGPU_DEVICE_UUID, "uuid", Shape::identity},
    {XGPU_DEVICE_PCI_BUS_ID, "pci_bus_id", Shape::identity},
    {XGPU_DEVICE_PLATFORM_NAME, "platform_name", Shape::text},
    {XGPU_DEVICE_PLATFORM_VENDOR, "platform_vendor", Shape::text},
    {XGPU_DEVICE_PLATFORM_VERSION, "platform_version", Shape::text},
    {XGPU_DEVICE_HARDWARE_VENDOR, "hardware_vendor", Shape::text},
    {XGPU_DEVICE_IMPLEMENTATION, "implementation", Shape::text},
    {XGPU_DEVICE_VENDOR_EXTRAS, "vendor_extras", Shape::extras},
    {XGPU_DEVICE_MAX_PARAMETER_SIZE, "max_parameter_size", Shape::count},
    {XGPU_DEVICE_MAX_CONSTANT_BUFFER, "max_constant_buffer_size", Shape::count},
    {XGPU_DEVICE_NON_UNIFORM_WORK_GROUPS, "non_uniform_work_groups", Shape::flag},
};

const Property* find_property(std::uint32_t id) {
  for (const Property& property : kProperties)
    if (property.id == id) return &property;
  return nullptr;
}

bool has(const json& device, const char* field) {
  return device.contains(field) && !device[field].is_null();
}

std::string joined_words(const json& words, const char* separator) {
  std::string text;
  for (const json& word : words) text += (text.empty() ? "" : separator) + word.get<std::string>();
  return text;
}

std::uint64_t type_bits(const json& words) {
  std::uint64_t bits = 0;
  for (const json& word : words) {
    const std::string type = word.get<std::string>();
    if (type == "cpu") bits |= XGPU_TYPE_CPU;
    if (type == "gpu") bits |= XGPU_TYPE_GPU;
    if (type == "accelerator") bits |= XGPU_TYPE_ACCELERATOR;
  }
  return bits;
}

// What the profile claims and the backing device cannot do: the profile's extensions the
// backing lacks, and non_uniform_work_groups. A kernel using one of them is built and run by
// the backing device, so a check of that feature (xgpu conform's) must know it is not tested.
std::string backing_lacks(const ProfileDevice& device) {
  std::string lacks;
  auto add = [&](const std::string& what) { lacks += (lacks.empty() ? "" : ",") + what; };
  for (const std::string& extension : device.caps.extensions)
    if (!device.backing_caps.extensions.count(extension)) add(extension);
  if (device.caps.non_uniform_work_groups && !device.backing_caps.non_uniform_work_groups)
    add("non_uniform_work_groups");
  return lacks;
}

// The profile's vendor extras, then this module's own (profile_file, profile_backing and its
// implementation and driver version, profile_inherited, profile_backing_lacks), so `xgpu query`
// shows where each value came from and what the backing device cannot do.
std::string extras_text(const ProfileDevice& device) {
  std::string text;
  if (has(device.file.device, "vendor_extras"))
    for (const auto& item : device.file.device["vendor_extras"].items())
      text += item.key() + "=" + item.value().get<std::string>() + "\n";
  text += "profile_file=" + device.file.path + "\n";
  text += "profile_backing=" + device.backing_caps.name + "\n";
  std::string inherited;
  for (const auto& field : device.inherited) inherited += (inherited.empty() ? "" : ",") + field;
  text += "profile_inherited=" + inherited + "\n";
  text += "profile_backing_implementation=" + device.backing_caps.implementation + "\n";
  text += "profile_backing_driver_version=" + device.backing_caps.driver_version + "\n";
  text += "profile_backing_lacks=" + backing_lacks(device) + "\n";
  return text;
}

common::Bytes answer(const ProfileDevice& device, const Property& property) {
  // The extras are answered whether or not the profile has "vendor_extras": never index a
  // missing field of a const json (undefined behaviour; an assertion in debug builds).
  if (property.shape == Shape::extras) return common::bytes_of_string(extras_text(device));
  const json& value = device.file.device[property.field];
  switch (property.shape) {
    case Shape::text:
      return common::bytes_of_string(value.get<std::string>());
    case Shape::count:
      return common::bytes_of_u64(value.get<std::uint64_t>());
    case Shape::flag:
      return common::bytes_of_bool(value.get<bool>());
    case Shape::counts3: {
      const std::uint64_t sizes[3] = {value[0].get<std::uint64_t>(), value[1].get<std::uint64_t>(),
                                      value[2].get<std::uint64_t>()};
      return common::bytes_of_u64s(sizes, 3);
    }
    case Shape::words:
      return common::bytes_of_string(joined_words(value, " "));
    case Shape::type_bits:
      return common::bytes_of_u64(type_bits(value));
    case Shape::extras:
      return common::bytes_of_string(extras_text(device));
    case Shape::identity:
      break;  // never answered: see kProperties
  }
  return {};
}

}  // namespace

std::vector<std::string> inherited_fields(const json& device) {
  std::vector<std::string> fields;
  for (const Property& property : kProperties)
    if (property.shape != Shape::identity && property.shape != Shape::extras &&
        !has(device, property.field))
      fields.push_back(property.field);
  return fields;
}

xgpu_status device_info(xgpu_device handle, uint32_t id, void* value, size_t capacity,
                        size_t* size_ret) {
  return common::guard([&] {
    ProfileDevice& device = profile_of(handle);
    const Property* property = find_property(id);
    if (property && property->shape == Shape::identity) {
      common::set_last_error("a simulated device has no physical identity");
      return XGPU_STATUS_NOT_AVAILABLE;
    }
    const bool own =
        property && (property->shape == Shape::extras || has(device.file.device, property->field));
    if (own) {
      common::copy_out(answer(device, *property), value, capacity, size_ret);
      return XGPU_STATUS_SUCCESS;
    }
    if (id == XGPU_DEVICE_FREE_MEM) {
      common::set_last_error("a profile device reports no free memory");
      return XGPU_STATUS_NOT_AVAILABLE;
    }
    // Not in the profile (or not in the schema, like the base address alignment sub-buffers
    // need): the real device's answer.
    return pass(inner().device_info(device.backing, id, value, capacity, size_ret));
  });
}

}  // namespace xgpu::profile
