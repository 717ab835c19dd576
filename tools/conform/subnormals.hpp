// Single-precision subnormals for the relational and conversions suites: a device without
// CL_FP_DENORM may flush them to zero (OpenCL C 6.1.1.1), so there either the answer on a
// subnormal or on that value flushed to zero of its sign is right.
#pragma once

#include <cmath>
#include <xgpu/opencl.hpp>

#include "check.hpp"

namespace xgpu::conform {

// A subnormal float flushed to zero of the same sign; any other value unchanged.
inline float flushed(float x) {
  return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0f, x) : x;
}

// Whether the device keeps float subnormals (CL_FP_DENORM); true off the opencl backend.
inline bool keeps_subnormals(Env& env) {
  if (interop::backend(env.device()) != "opencl") return true;
  cl_device_fp_config config = 0;
  clGetDeviceInfo(opencl::device(env.device()), CL_DEVICE_SINGLE_FP_CONFIG, sizeof config, &config,
                  nullptr);
  return (config & CL_FP_DENORM) != 0;
}

}  // namespace xgpu::conform
