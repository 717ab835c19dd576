// Reading a DeviceInfo through a module, one property at a time. A property the driver
// fails to report is recorded in query_errors; it never hides the rest of the device.
#include <sstream>

#include "registry.hpp"

namespace xgpu::detail {
namespace {

class InfoReader {
 public:
  InfoReader(const Module& module, xgpu_device device, DeviceInfo& info)
      : module_(module), device_(device), info_(info) {}

  std::string text(std::uint32_t property, const char* label) {
    std::string value;
    auto query = [&](char* buffer, std::size_t capacity, std::size_t* size) {
      return module_.table->device_info(device_, property, buffer, capacity, size);
    };
    note(read_string(query, value), label);
    return value;
  }

  std::uint64_t number(std::uint32_t property, const char* label) {
    std::uint64_t value = 0;
    std::size_t size = 0;
    note(module_.table->device_info(device_, property, &value, sizeof value, &size), label);
    return value;
  }

  bool flag(std::uint32_t property, const char* label) {
    std::uint32_t value = 0;
    std::size_t size = 0;
    note(module_.table->device_info(device_, property, &value, sizeof value, &size), label);
    return value != 0;
  }

  /// A property newer than some modules: one that does not know it (INVALID_VALUE) reads
  /// as false, with no query error.
  bool newer_flag(std::uint32_t property, const char* label) {
    std::uint32_t value = 0;
    std::size_t size = 0;
    const xgpu_status status =
        module_.table->device_info(device_, property, &value, sizeof value, &size);
    if (status == XGPU_STATUS_INVALID_VALUE) return false;
    note(status, label);
    return status == XGPU_STATUS_SUCCESS && value != 0;
  }

  /// A number a module may predate: 0 (unknown) when it answers INVALID_VALUE.
  std::uint64_t newer_number(std::uint32_t property, const char* label) {
    std::uint64_t value = 0;
    std::size_t size = 0;
    const xgpu_status status =
        module_.table->device_info(device_, property, &value, sizeof value, &size);
    if (status == XGPU_STATUS_INVALID_VALUE) return 0;
    note(status, label);
    return status == XGPU_STATUS_SUCCESS ? value : 0;
  }

  void work_items() {
    std::uint64_t sizes[3] = {0, 0, 0};
    std::size_t size = 0;
    note(
        module_.table->device_info(device_, XGPU_DEVICE_MAX_WORK_ITEMS, sizes, sizeof sizes, &size),
        "max_work_item_sizes");
    for (int i = 0; i < 3; ++i) info_.max_work_item_sizes[i] = static_cast<std::size_t>(sizes[i]);
  }

 private:
  void note(xgpu_status status, const char* label) {
    if (status == XGPU_STATUS_SUCCESS || status == XGPU_STATUS_NOT_AVAILABLE) return;
    info_.query_errors[label] = module_.status_name(status) + ": " + module_.last_error();
  }

  const Module& module_;
  xgpu_device device_;
  DeviceInfo& info_;
};

std::vector<std::string> split_words(const std::string& text) {
  std::vector<std::string> words;
  std::istringstream in(text);
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

std::vector<std::pair<std::string, std::string>> split_extras(const std::string& text) {
  std::vector<std::pair<std::string, std::string>> extras;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    auto equals = line.find('=');
    if (equals != std::string::npos)
      extras.emplace_back(line.substr(0, equals), line.substr(equals + 1));
  }
  return extras;
}

}  // namespace

DeviceInfo read_device_info(const Module& module, xgpu_device device) {
  DeviceInfo info;
  InfoReader read(module, device, info);
  info.backend = module.name;
  info.platform_name = read.text(XGPU_DEVICE_PLATFORM_NAME, "platform_name");
  info.platform_vendor = read.text(XGPU_DEVICE_PLATFORM_VENDOR, "platform_vendor");
  info.platform_version = read.text(XGPU_DEVICE_PLATFORM_VERSION, "platform_version");
  info.name = read.text(XGPU_DEVICE_NAME, "name");
  info.vendor = read.text(XGPU_DEVICE_VENDOR, "vendor");
  info.vendor_id = static_cast<std::uint32_t>(read.number(XGPU_DEVICE_VENDOR_ID, "vendor_id"));
  info.hardware_vendor = read.text(XGPU_DEVICE_HARDWARE_VENDOR, "hardware_vendor");
  info.implementation = read.text(XGPU_DEVICE_IMPLEMENTATION, "implementation");
  info.type = static_cast<std::uint32_t>(read.number(XGPU_DEVICE_TYPE, "type"));
  info.device_version = read.text(XGPU_DEVICE_VERSION, "device_version");
  info.driver_version = read.text(XGPU_DEVICE_DRIVER_VERSION, "driver_version");
  info.language_version = read.text(XGPU_DEVICE_LANGUAGE_VERSION, "language_version");
  info.global_memory = read.number(XGPU_DEVICE_GLOBAL_MEM, "global_memory");
  info.max_allocation = read.number(XGPU_DEVICE_MAX_ALLOC, "max_allocation");
  info.local_memory = read.number(XGPU_DEVICE_LOCAL_MEM, "local_memory");
  info.max_parameter_size = read.number(XGPU_DEVICE_MAX_PARAMETER_SIZE, "max_parameter_size");
  info.compute_units =
      static_cast<std::uint32_t>(read.number(XGPU_DEVICE_COMPUTE_UNITS, "compute_units"));
  info.clock_mhz = static_cast<std::uint32_t>(read.number(XGPU_DEVICE_CLOCK_MHZ, "clock_mhz"));
  info.max_work_group_size = read.number(XGPU_DEVICE_MAX_WORK_GROUP, "max_work_group_size");
  read.work_items();
  info.work_group_multiple = read.number(XGPU_DEVICE_WORK_GROUP_MULTIPLE, "work_group_multiple");
  if (info.work_group_multiple == 0) info.work_group_multiple = 1;
  info.fp16 = read.flag(XGPU_DEVICE_FP16, "fp16");
  info.fp64 = read.flag(XGPU_DEVICE_FP64, "fp64");
  info.ecc = read.flag(XGPU_DEVICE_ECC, "ecc");
  info.host_unified_memory = read.flag(XGPU_DEVICE_HOST_UNIFIED, "host_unified_memory");
  info.images = read.flag(XGPU_DEVICE_IMAGES, "images");
  info.non_uniform_work_groups =
      read.newer_flag(XGPU_DEVICE_NON_UNIFORM_WORK_GROUPS, "non_uniform_work_groups");
  info.base_address_alignment =
      read.newer_number(XGPU_DEVICE_BASE_ADDRESS_ALIGN, "base_address_alignment");
  info.max_constant_buffer_size =
      read.newer_number(XGPU_DEVICE_MAX_CONSTANT_BUFFER, "max_constant_buffer_size");
  info.extensions = split_words(read.text(XGPU_DEVICE_EXTENSIONS, "extensions"));
  info.uuid = read.text(XGPU_DEVICE_UUID, "uuid");
  info.pci_bus_id = read.text(XGPU_DEVICE_PCI_BUS_ID, "pci_bus_id");
  info.vendor_extras = split_extras(read.text(XGPU_DEVICE_VENDOR_EXTRAS, "vendor_extras"));
  return info;
}

}  // namespace xgpu::detail
