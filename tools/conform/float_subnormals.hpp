// Whether a device keeps single-precision subnormals: one without CL_FP_DENORM in
// CL_DEVICE_SINGLE_FP_CONFIG may flush them to zero, inputs and results (OpenCL C 6.1.1.1), as
// may any program built with -cl-denorms-are-zero. Shared by the conformance suite
// (subnormals.hpp) and the library's tests, which include it by path.
#pragma once

#include <xgpu/opencl.hpp>

namespace xgpu::conform {

/// True off the opencl backend: CUDA keeps float subnormals unless told to flush them.
inline bool keeps_float_subnormals(const Device& device) {
  if (interop::backend(device) != "opencl") return true;
  cl_device_fp_config config = 0;
  clGetDeviceInfo(opencl::device(device), CL_DEVICE_SINGLE_FP_CONFIG, sizeof config, &config,
                  nullptr);
  return (config & CL_FP_DENORM) != 0;
}

}  // namespace xgpu::conform
