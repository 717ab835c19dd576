// device_info(): one row per XGPU_DEVICE_* property, each producing the bytes the caller gets.
#include <string>
#include <vector>

#include "cl_query.hpp"
#include "device_ids.hpp"
#include "entries.hpp"
#include "errors.hpp"
#include "registry.hpp"
#include "serialized_call.hpp"
#include "vendor.hpp"
#include "work_group_multiple.hpp"
#include "xgpu/common/drivers/version.hpp"
#include "xgpu/common/log.hpp"
#include "xgpu/common/out_param.hpp"

namespace xgpu::backend_opencl {

using common::Bytes;
using common::bytes_of_bool;
using common::bytes_of_string;
using common::bytes_of_u64;
using common::bytes_of_u64s;
using common::copy_out;
namespace {

template <cl_device_info kParam>
Bytes string_of(DeviceRecord& record) {
  return bytes_of_string(device_string(record.device, kParam));
}

template <cl_platform_info kParam>
Bytes platform_string_of(DeviceRecord& record) {
  return bytes_of_string(platform_string(record.platform, kParam));
}

// T is the type the OpenCL specification gives the property (cl_uint, size_t, cl_ulong).
template <class T, cl_device_info kParam>
Bytes u64_of(DeviceRecord& record) {
  return bytes_of_u64(static_cast<uint64_t>(device_scalar<T>(record.device, kParam)));
}

template <cl_device_info kParam>
Bytes bool_of(DeviceRecord& record) {
  return bytes_of_bool(device_scalar<cl_bool>(record.device, kParam) != CL_FALSE);
}

Bytes type_of(DeviceRecord& record) { return bytes_of_u64(record.identity.type_bits); }

// Always three values, so callers can index [0..2]; a missing dimension allows 1 item.
Bytes max_work_items_of(DeviceRecord& record) {
  auto dimensions = device_scalar<cl_uint>(record.device, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS);
  std::vector<size_t> sizes(dimensions < 3 ? 3 : dimensions, 1);
  check_device_info(clGetDeviceInfo(record.device, CL_DEVICE_MAX_WORK_ITEM_SIZES,
                                    dimensions * sizeof(size_t), sizes.data(), nullptr));
  uint64_t items[3] = {sizes[0], sizes[1], sizes[2]};
  return bytes_of_u64s(items, 3);
}

Bytes work_group_multiple_of(DeviceRecord& record) {
  return bytes_of_u64(work_group_multiple(record));
}

Bytes fp16_of(DeviceRecord& record) {
  return bytes_of_bool(has_extension(record.extensions, "cl_khr_fp16"));
}

// 1.0 drivers reject CL_DEVICE_DOUBLE_FP_CONFIG; the extension then decides.
Bytes fp64_of(DeviceRecord& record) {
  cl_device_fp_config config = 0;
  clGetDeviceInfo(record.device, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof(config), &config, nullptr);
  return bytes_of_bool(config != 0 || has_extension(record.extensions, "cl_khr_fp64"));
}

// OpenCL 2.x has non-uniform work-groups; 3.0 makes them optional and says so; 1.x has none.
// In every case only for programs built with -cl-std=CL2.0 or later.
Bytes non_uniform_work_groups_of(DeviceRecord& record) {
  const drivers::Version version =
      drivers::opencl_version(device_string(record.device, CL_DEVICE_VERSION));
  if (version < drivers::Version{2, 0}) return bytes_of_bool(false);
  if (version < drivers::Version{3, 0}) return bytes_of_bool(true);
  cl_bool supported = CL_FALSE;
  clGetDeviceInfo(record.device, CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT, sizeof supported,
                  &supported, nullptr);
  return bytes_of_bool(supported != CL_FALSE);
}

// OpenCL gives the alignment in bits; the ABI in bytes.
Bytes base_address_align_of(DeviceRecord& record) {
  cl_uint bits = 0;
  check(clGetDeviceInfo(record.device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof bits, &bits, nullptr),
        "clGetDeviceInfo(CL_DEVICE_MEM_BASE_ADDR_ALIGN)");
  return bytes_of_u64(bits / 8);
}

Bytes uuid_of(DeviceRecord& record) { return bytes_of_string(device_uuid(record)); }
Bytes pci_bus_id_of(DeviceRecord& record) { return bytes_of_string(device_pci_bus_id(record)); }

Bytes hardware_vendor_of(DeviceRecord& record) {
  return bytes_of_string(record.classification.hardware_vendor);
}

Bytes implementation_of(DeviceRecord& record) {
  return bytes_of_string(record.classification.implementation);
}

// Best effort: a driver that lists an extension but rejects one of its queries loses its
// extras, not the whole property.
Bytes vendor_extras_of(DeviceRecord& record) {
  const VendorHooks& hooks = vendor_hooks(record.classification.implementation);
  if (hooks.extras == nullptr) return bytes_of_string("");
  try {
    return bytes_of_string(hooks.extras(record.device, record.extensions));
  } catch (const Failure&) {
    XGPU_LOG_WARNF("vendor extras of %s: %s", record.identity.device_name.c_str(),
                   last_error_text().c_str());
    return bytes_of_string("");
  }
}

// Only where a vendor's extension says (AMD); NVIDIA's OpenCL has no such query, and
// PoCL and Oclgrind none either: NOT_AVAILABLE, never a figure of our own.
Bytes free_memory_of(DeviceRecord& record) {
  const VendorHooks& hooks = vendor_hooks(record.classification.implementation);
  std::optional<uint64_t> free = hooks.free_memory != nullptr
                                     ? hooks.free_memory(record.device, record.extensions)
                                     : std::nullopt;
  if (!free) fail(XGPU_STATUS_NOT_AVAILABLE, "the driver does not report free memory");
  return bytes_of_u64(*free);
}

struct PropertyRow {
  uint32_t property;
  Bytes (*read)(DeviceRecord& record);
};

constexpr PropertyRow kProperties[] = {
    {XGPU_DEVICE_NAME, string_of<CL_DEVICE_NAME>},
    {XGPU_DEVICE_VENDOR, string_of<CL_DEVICE_VENDOR>},
    {XGPU_DEVICE_VENDOR_ID, u64_of<cl_uint, CL_DEVICE_VENDOR_ID>},
    {XGPU_DEVICE_TYPE, type_of},
    {XGPU_DEVICE_VERSION, string_of<CL_DEVICE_VERSION>},
    {XGPU_DEVICE_DRIVER_VERSION, string_of<CL_DRIVER_VERSION>},
    {XGPU_DEVICE_LANGUAGE_VERSION, string_of<CL_DEVICE_OPENCL_C_VERSION>},
    {XGPU_DEVICE_GLOBAL_MEM, u64_of<cl_ulong, CL_DEVICE_GLOBAL_MEM_SIZE>},
    {XGPU_DEVICE_MAX_ALLOC, u64_of<cl_ulong, CL_DEVICE_MAX_MEM_ALLOC_SIZE>},
    {XGPU_DEVICE_LOCAL_MEM, u64_of<cl_ulong, CL_DEVICE_LOCAL_MEM_SIZE>},
    {XGPU_DEVICE_COMPUTE_UNITS, u64_of<cl_uint, CL_DEVICE_MAX_COMPUTE_UNITS>},
    {XGPU_DEVICE_CLOCK_MHZ, u64_of<cl_uint, CL_DEVICE_MAX_CLOCK_FREQUENCY>},
    {XGPU_DEVICE_MAX_WORK_GROUP, u64_of<size_t, CL_DEVICE_MAX_WORK_GROUP_SIZE>},
    {XGPU_DEVICE_MAX_WORK_ITEMS, max_work_items_of},
    {XGPU_DEVICE_WORK_GROUP_MULTIPLE, work_group_multiple_of},
    {XGPU_DEVICE_FP16, fp16_of},
    {XGPU_DEVICE_FP64, fp64_of},
    {XGPU_DEVICE_ECC, bool_of<CL_DEVICE_ERROR_CORRECTION_SUPPORT>},
    {XGPU_DEVICE_HOST_UNIFIED, bool_of<CL_DEVICE_HOST_UNIFIED_MEMORY>},
    {XGPU_DEVICE_IMAGES, bool_of<CL_DEVICE_IMAGE_SUPPORT>},
    {XGPU_DEVICE_EXTENSIONS, string_of<CL_DEVICE_EXTENSIONS>},
    {XGPU_DEVICE_UUID, uuid_of},
    {XGPU_DEVICE_PCI_BUS_ID, pci_bus_id_of},
    {XGPU_DEVICE_PLATFORM_NAME, platform_string_of<CL_PLATFORM_NAME>},
    {XGPU_DEVICE_PLATFORM_VENDOR, platform_string_of<CL_PLATFORM_VENDOR>},
    {XGPU_DEVICE_PLATFORM_VERSION, platform_string_of<CL_PLATFORM_VERSION>},
    {XGPU_DEVICE_HARDWARE_VENDOR, hardware_vendor_of},
    {XGPU_DEVICE_IMPLEMENTATION, implementation_of},
    {XGPU_DEVICE_VENDOR_EXTRAS, vendor_extras_of},
    {XGPU_DEVICE_MAX_PARAMETER_SIZE, u64_of<size_t, CL_DEVICE_MAX_PARAMETER_SIZE>},
    {XGPU_DEVICE_NON_UNIFORM_WORK_GROUPS, non_uniform_work_groups_of},
    {XGPU_DEVICE_FREE_MEM, free_memory_of},
    {XGPU_DEVICE_BASE_ADDRESS_ALIGN, base_address_align_of},
    {XGPU_DEVICE_MAX_CONSTANT_BUFFER, u64_of<cl_ulong, CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE>},
};

}  // namespace

xgpu_status device_info(xgpu_device device, uint32_t property, void* value, size_t capacity,
                        size_t* size_ret) {
  return guard_on(device, [&] {
    DeviceRecord& record = registry_find(reinterpret_cast<cl_device_id>(device));
    for (const PropertyRow& row : kProperties) {
      if (row.property != property) continue;
      copy_out(row.read(record), value, capacity, size_ret);
      return XGPU_STATUS_SUCCESS;
    }
    fail(XGPU_STATUS_INVALID_VALUE, "unknown device property " + std::to_string(property));
  });
}

}  // namespace xgpu::backend_opencl
