// Reading a backing device's limits through the inner module.
#include "device_caps.hpp"

#include <sstream>
#include <vector>

#include "inner_module.hpp"
#include "xgpu/common/errors.hpp"

namespace xgpu::profile {
namespace {

std::uint64_t number(xgpu_device device, std::uint32_t property) {
  std::uint64_t value = 0;
  std::size_t size = 0;
  if (inner().device_info(device, property, &value, sizeof value, &size) != XGPU_STATUS_SUCCESS)
    return 0;
  return value;
}

bool flag(xgpu_device device, std::uint32_t property) {
  std::uint32_t value = 0;
  std::size_t size = 0;
  if (inner().device_info(device, property, &value, sizeof value, &size) != XGPU_STATUS_SUCCESS)
    return false;
  return value != 0;
}

std::string text(xgpu_device device, std::uint32_t property) {
  std::size_t size = 0;
  if (inner().device_info(device, property, nullptr, 0, &size) != XGPU_STATUS_SUCCESS || size == 0)
    return {};
  std::vector<char> buffer(size);
  if (inner().device_info(device, property, buffer.data(), size, &size) != XGPU_STATUS_SUCCESS)
    return {};
  return std::string(buffer.data());
}

}  // namespace

DeviceCaps read_backing_caps(xgpu_device device) {
  DeviceCaps caps;
  caps.name = text(device, XGPU_DEVICE_NAME);
  caps.implementation = text(device, XGPU_DEVICE_IMPLEMENTATION);
  caps.driver_version = text(device, XGPU_DEVICE_DRIVER_VERSION);
  caps.max_work_group_size = number(device, XGPU_DEVICE_MAX_WORK_GROUP);
  std::size_t size = 0;
  if (inner().device_info(device, XGPU_DEVICE_MAX_WORK_ITEMS, caps.max_work_item_sizes,
                          sizeof caps.max_work_item_sizes, &size) != XGPU_STATUS_SUCCESS) {
    common::fail(XGPU_STATUS_INVALID_VALUE,
                 "the backing device's work-item sizes are unknown: " + inner_error());
  }
  caps.local_memory = number(device, XGPU_DEVICE_LOCAL_MEM);
  caps.max_allocation = number(device, XGPU_DEVICE_MAX_ALLOC);
  caps.global_memory = number(device, XGPU_DEVICE_GLOBAL_MEM);
  caps.max_parameter_size = number(device, XGPU_DEVICE_MAX_PARAMETER_SIZE);
  caps.max_constant_buffer = number(device, XGPU_DEVICE_MAX_CONSTANT_BUFFER);
  caps.fp16 = flag(device, XGPU_DEVICE_FP16);
  caps.fp64 = flag(device, XGPU_DEVICE_FP64);
  caps.images = flag(device, XGPU_DEVICE_IMAGES);
  caps.non_uniform_work_groups = flag(device, XGPU_DEVICE_NON_UNIFORM_WORK_GROUPS);
  std::istringstream words(text(device, XGPU_DEVICE_EXTENSIONS));
  for (std::string word; words >> word;) caps.extensions.insert(word);
  const drivers::Version language = drivers::newest_opencl_c(
      text(device, XGPU_DEVICE_LANGUAGE_VERSION), text(device, XGPU_DEVICE_VERSION));
  if (!language.empty()) caps.language = language;
  return caps;
}

}  // namespace xgpu::profile
