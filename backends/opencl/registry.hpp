// Every OpenCL platform and device, enumerated once at init(), with what the module learns
// about each device (its classification, its lazily probed work-group multiple).
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>

#include "cl.hpp"
#include "classify.hpp"
#include "xgpu/backend.h"

namespace xgpu::backend_opencl {

struct DeviceRecord {
  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
  DeviceIdentity identity;
  Classification classification;
  std::string extensions;
  // Probed on first use by work_group_multiple(); see work_group_multiple.cpp.
  std::once_flag work_group_once;
  uint64_t work_group_multiple = 1;
};

/// Enumerates once; a later call returns the first call's status and re-records its text
/// for this thread. CL_PLATFORM_NOT_FOUND_KHR when there is no platform at all.
xgpu_status registry_init();

size_t registry_device_count();

/// The record at `index`; throws Failure (XGPU_STATUS_INVALID_VALUE) when out of range.
DeviceRecord& registry_device(size_t index);

/// The record of a device handed out by device_get; throws Failure (CL_INVALID_DEVICE)
/// for any other handle.
DeviceRecord& registry_find(cl_device_id device);

}  // namespace xgpu::backend_opencl
