// device_info(): one row per XGPU_DEVICE_* property, from cuDeviceGetAttribute and friends,
// worded as the opencl module words NVIDIA's OpenCL (same vendor extras keys, same UUID and
// PCI text), so one GPU seen through both modules is recognisably the same device.
#include <string>

#include "driver.hpp"
#include "entries.hpp"
#include "errors.hpp"
#include "program_build.hpp"
#include "registry.hpp"
#include "xgpu/common/device_ids.hpp"
#include "xgpu/common/out_param.hpp"

namespace xgpu::backend_cuda {

using common::Bytes;
using common::bytes_of_bool;
using common::bytes_of_string;
using common::bytes_of_u64;
namespace {

constexpr uint64_t kNvidiaVendorId = 0x10DE;

template <int kAttribute>
Bytes attribute_of(DeviceRecord& record) {
  return bytes_of_u64(static_cast<uint64_t>(device_attribute(record, kAttribute)));
}

template <int kAttribute>
Bytes flag_of(DeviceRecord& record) {
  return bytes_of_bool(device_attribute(record, kAttribute) != 0);
}

Bytes text(const std::string& value) { return bytes_of_string(value); }

Bytes name_of(DeviceRecord& record) { return text(record.name); }
Bytes vendor_of(DeviceRecord&) { return text("NVIDIA Corporation"); }
Bytes vendor_id_of(DeviceRecord&) { return bytes_of_u64(kNvidiaVendorId); }
Bytes type_of(DeviceRecord&) { return bytes_of_u64(XGPU_TYPE_GPU); }
Bytes nvidia_of(DeviceRecord&) { return text("nvidia"); }
Bytes no_of(DeviceRecord&) { return bytes_of_bool(false); }
Bytes yes_of(DeviceRecord&) { return bytes_of_bool(true); }

// The compute capability is the device's version here: with the driver version it keys the
// kernel cache, so PTX made for sm_80 is never loaded as if it were sm_90's.
Bytes version_of(DeviceRecord& record) {
  return text("CUDA sm_" + std::to_string(record.cc_major) + std::to_string(record.cc_minor));
}

// "12.4" for 12040, as nvidia-smi prints the CUDA version.
std::string cuda_version_text(int version) {
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

Bytes driver_version_of(DeviceRecord&) { return text(cuda_version_text(driver_version())); }
Bytes platform_name_of(DeviceRecord&) { return text("CUDA"); }
// With the translation's fingerprint: the kernel cache keys on this, and PTX made through an
// older prelude must not be loaded.
Bytes platform_version_of(DeviceRecord&) {
  return text("CUDA " + cuda_version_text(driver_version()) + " (" + translation_fingerprint() +
              ")");
}
// The kernels are OpenCL C, compiled through the prelude; it targets OpenCL C 1.2.
Bytes language_of(DeviceRecord&) { return text("OpenCL C 1.2 (through NVRTC)"); }

Bytes global_memory_of(DeviceRecord& record) {
  size_t bytes = 0;
  check(cu().cuDeviceTotalMem(&bytes, record.device), "cuDeviceTotalMem");
  return bytes_of_u64(bytes);
}

// cuMemGetInfo needs a current context: the primary one, retained only for the question.
Bytes free_memory_of(DeviceRecord& record) {
  CUcontext context = nullptr;
  check(cu().cuDevicePrimaryCtxRetain(&context, record.device), "cuDevicePrimaryCtxRetain");
  size_t free = 0, total = 0;
  CUresult status = cu().cuCtxPushCurrent(context);
  if (status == CUDA_SUCCESS) {
    status = cu().cuMemGetInfo(&free, &total);
    CUcontext popped = nullptr;
    cu().cuCtxPopCurrent(&popped);
  }
  cu().cuDevicePrimaryCtxRelease(record.device);
  check(status, "cuMemGetInfo");
  return bytes_of_u64(free);
}

Bytes clock_of(DeviceRecord& record) {
  return bytes_of_u64(device_attribute(record, CU_DEVICE_ATTRIBUTE_CLOCK_RATE) / 1000);
}

Bytes max_work_items_of(DeviceRecord& record) {
  uint64_t items[3] = {
      static_cast<uint64_t>(device_attribute(record, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X)),
      static_cast<uint64_t>(device_attribute(record, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y)),
      static_cast<uint64_t>(device_attribute(record, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z))};
  return common::bytes_of_u64s(items, 3);
}

// Native half arithmetic from sm_53 on (the prelude's half type uses it).
Bytes fp16_of(DeviceRecord& record) {
  return bytes_of_bool(record.cc_major * 10 + record.cc_minor >= 53);
}

// What NVIDIA's OpenCL lists that the prelude also covers.
Bytes extensions_of(DeviceRecord& record) {
  std::string list =
      "cl_khr_fp64 cl_khr_global_int32_base_atomics cl_khr_global_int32_extended_atomics "
      "cl_khr_local_int32_base_atomics cl_khr_local_int32_extended_atomics "
      "cl_khr_int64_base_atomics cl_khr_byte_addressable_store cl_khr_device_uuid "
      "cl_khr_pci_bus_info";
  if (record.cc_major * 10 + record.cc_minor >= 53) list += " cl_khr_fp16";
  return text(list);
}

Bytes uuid_of(DeviceRecord& record) {
  CUuuid uuid{};
  check(cu().cuDeviceGetUuid(&uuid, record.device), "cuDeviceGetUuid");
  std::string value = common::uuid_text(uuid.bytes);
  if (value.empty()) fail(XGPU_STATUS_NOT_AVAILABLE, "device UUID reported as all zeros");
  return text(value);
}

// CUDA reports no PCI function: NVIDIA GPUs are function 0, as nvidia-smi shows them.
Bytes pci_bus_id_of(DeviceRecord& record) {
  common::PciAddress address;
  address.domain = device_attribute(record, CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID);
  address.bus = device_attribute(record, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID);
  address.device = device_attribute(record, CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID);
  return text(common::pci_address_text(address));
}

// compute_capability and warp_size as vendor_nvidia.cpp reports them through OpenCL, then
// what only CUDA tells.
Bytes vendor_extras_of(DeviceRecord& record) {
  auto line = [&](const char* key, int attribute) {
    return std::string(key) + "=" + std::to_string(device_attribute(record, attribute)) + "\n";
  };
  return text(
      "compute_capability=" + std::to_string(record.cc_major) + "." +
      std::to_string(record.cc_minor) + "\n" + line("warp_size", CU_DEVICE_ATTRIBUTE_WARP_SIZE) +
      line("sm_count", CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT) +
      line("registers_per_block", CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK) +
      line("registers_per_sm", CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR) +
      line("shared_memory_per_sm", CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR) +
      line("l2_cache_bytes", CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE) +
      line("memory_clock_khz", CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE) +
      line("memory_bus_width_bits", CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH));
}

// cuMemAlloc takes any size the memory holds; OpenCL's quarter-of-memory rule does not apply.
Bytes max_alloc_of(DeviceRecord& record) { return global_memory_of(record); }

// Kernel parameters: 4 KiB before CUDA 12.1 and Volta; the conservative figure, less the
// prelude's hidden launch-information parameter (56 bytes).
Bytes max_parameter_size_of(DeviceRecord&) { return bytes_of_u64(4096 - 64); }

// cuMemAlloc returns 256-byte aligned memory; sub-buffers keep that alignment.
Bytes base_address_align_of(DeviceRecord&) { return bytes_of_u64(256); }
// A __constant pointer parameter is an ordinary device pointer in the translation (CUDA's
// 64 KiB constant bank holds only program-scope __constant data, whose excess NVRTC refuses at
// the build): a buffer argument of any size the device can allocate is taken, and that is the
// limit reported.
Bytes max_constant_buffer_of(DeviceRecord& record) { return max_alloc_of(record); }

struct PropertyRow {
  uint32_t property;
  Bytes (*read)(DeviceRecord& record);
};

constexpr PropertyRow kProperties[] = {
    {XGPU_DEVICE_NAME, name_of},
    {XGPU_DEVICE_VENDOR, vendor_of},
    {XGPU_DEVICE_VENDOR_ID, vendor_id_of},
    {XGPU_DEVICE_TYPE, type_of},
    {XGPU_DEVICE_VERSION, version_of},
    {XGPU_DEVICE_DRIVER_VERSION, driver_version_of},
    {XGPU_DEVICE_LANGUAGE_VERSION, language_of},
    {XGPU_DEVICE_GLOBAL_MEM, global_memory_of},
    {XGPU_DEVICE_MAX_ALLOC, max_alloc_of},
    {XGPU_DEVICE_LOCAL_MEM, attribute_of<CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK>},
    {XGPU_DEVICE_COMPUTE_UNITS, attribute_of<CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT>},
    {XGPU_DEVICE_CLOCK_MHZ, clock_of},
    {XGPU_DEVICE_MAX_WORK_GROUP, attribute_of<CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK>},
    {XGPU_DEVICE_MAX_WORK_ITEMS, max_work_items_of},
    {XGPU_DEVICE_WORK_GROUP_MULTIPLE, attribute_of<CU_DEVICE_ATTRIBUTE_WARP_SIZE>},
    {XGPU_DEVICE_FP16, fp16_of},
    {XGPU_DEVICE_FP64, yes_of},
    {XGPU_DEVICE_ECC, flag_of<CU_DEVICE_ATTRIBUTE_ECC_ENABLED>},
    {XGPU_DEVICE_HOST_UNIFIED, flag_of<CU_DEVICE_ATTRIBUTE_INTEGRATED>},
    {XGPU_DEVICE_IMAGES, no_of},
    {XGPU_DEVICE_EXTENSIONS, extensions_of},
    {XGPU_DEVICE_UUID, uuid_of},
    {XGPU_DEVICE_PCI_BUS_ID, pci_bus_id_of},
    {XGPU_DEVICE_PLATFORM_NAME, platform_name_of},
    {XGPU_DEVICE_PLATFORM_VENDOR, vendor_of},
    {XGPU_DEVICE_PLATFORM_VERSION, platform_version_of},
    {XGPU_DEVICE_HARDWARE_VENDOR, nvidia_of},
    {XGPU_DEVICE_IMPLEMENTATION, nvidia_of},
    {XGPU_DEVICE_VENDOR_EXTRAS, vendor_extras_of},
    {XGPU_DEVICE_MAX_PARAMETER_SIZE, max_parameter_size_of},
    // Uniform work-groups only (the prelude's launch contract, rule 4).
    {XGPU_DEVICE_NON_UNIFORM_WORK_GROUPS, no_of},
    {XGPU_DEVICE_FREE_MEM, free_memory_of},
    {XGPU_DEVICE_BASE_ADDRESS_ALIGN, base_address_align_of},
    {XGPU_DEVICE_MAX_CONSTANT_BUFFER, max_constant_buffer_of},
};

}  // namespace

xgpu_status device_info(xgpu_device device, uint32_t property, void* value, size_t capacity,
                        size_t* size_ret) {
  return guard([&] {
    DeviceRecord& record = registry_find(device);
    for (const PropertyRow& row : kProperties) {
      if (row.property != property) continue;
      common::copy_out(row.read(record), value, capacity, size_ret);
      return XGPU_STATUS_SUCCESS;
    }
    fail(XGPU_STATUS_INVALID_VALUE, "unknown device property " + std::to_string(property));
  });
}

}  // namespace xgpu::backend_cuda
