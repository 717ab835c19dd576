// Single-precision subnormals for the relational and conversions suites: a device without
// CL_FP_DENORM may flush them to zero (OpenCL C 6.1.1.1), so there either the answer on a
// subnormal or on that value flushed to zero of its sign is right.
#pragma once

#include <cmath>

#include "check.hpp"
#include "float_subnormals.hpp"

namespace xgpu::conform {

// A subnormal float flushed to zero of the same sign; any other value unchanged.
inline float flushed(float x) {
  return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0f, x) : x;
}

// Whether the device keeps float subnormals (float_subnormals.hpp).
inline bool keeps_subnormals(Env& env) { return keeps_float_subnormals(env.device()); }

}  // namespace xgpu::conform
