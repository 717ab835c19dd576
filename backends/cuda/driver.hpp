// libcuda.so.1, opened at run time through backends/common's loader, and its entry points.
// The module never links libcuda: without a driver it still loads and says why it offers no
// device.
#pragma once

#include "cuda_driver_api.hpp"
#include "xgpu/backend.h"

namespace xgpu::backend_cuda {

/// Every entry point of cuda_driver_functions.def, resolved from the loaded driver.
struct DriverApi {
#define XGPU_CU(member, symbol, fallback, result, parameters) result(*member) parameters = nullptr;
#include "cuda_driver_functions.def"
#undef XGPU_CU
};

/// Opens the driver (XGPU_CUDA_LIBRARY names another file), calls cuInit(0) and resolves
/// every entry point, once per process; a later call repeats the first outcome. Throws
/// Failure: XGPU_STATUS_NOT_AVAILABLE "no NVIDIA driver (<dlopen's text>)" when the library
/// cannot be opened or lacks an entry point, the CUresult with "no CUDA device (...)" when
/// cuInit finds none, the CUresult and its name for any other cuInit failure.
void load_driver();

/// The resolved entry points; only valid after load_driver() returned.
const DriverApi& cu();

/// True once load_driver() has succeeded (status names may then ask the driver).
bool driver_loaded() noexcept;

/// cuDriverGetVersion(): 12040 for CUDA 12.4.
int driver_version();

}  // namespace xgpu::backend_cuda
