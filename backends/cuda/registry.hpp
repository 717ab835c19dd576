// Every CUDA device, enumerated once at init(), with the identity the module reports for it.
#pragma once

#include <cstddef>
#include <string>

#include "cuda_driver_api.hpp"
#include "xgpu/backend.h"

namespace xgpu::backend_cuda {

/// One device; the xgpu_device handle points at it. Properties that cannot change while the
/// process runs are read once here; free memory and the like are asked for each time.
struct DeviceRecord {
  CUdevice device = 0;
  int ordinal = 0;
  std::string name;
  int cc_major = 0;
  int cc_minor = 0;
};

/// Loads the driver and enumerates, once; a later call returns the first call's status and
/// re-records its text for this thread.
xgpu_status registry_init();

size_t registry_device_count();

/// The record at `index`; throws Failure (XGPU_STATUS_INVALID_VALUE) when out of range.
DeviceRecord& registry_device(size_t index);

/// The record of a handle handed out by device_get; throws Failure (CUDA_ERROR_INVALID_DEVICE)
/// for any other.
DeviceRecord& registry_find(xgpu_device device);

/// An attribute of the device (cuDeviceGetAttribute), checked.
int device_attribute(const DeviceRecord& record, int attribute);

}  // namespace xgpu::backend_cuda
