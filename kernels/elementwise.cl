// Element-wise building blocks over float buffers of n elements. Launch over a global
// range of at least n work-items (extra items do nothing).
// Requires: OpenCL C 1.2.
#include "xgpu_common.cl"

// y[i] = a * x[i] + y[i]
__kernel void xgpu_axpy_f32(const uint n, const float a, __global const float* x,
                            __global float* y) {
  const size_t i = xgpu_index();
  if (i < n) y[i] = fma(a, x[i], y[i]);
}

// x[i] = value
__kernel void xgpu_fill_f32(const uint n, const float value, __global float* x) {
  const size_t i = xgpu_index();
  if (i < n) x[i] = value;
}

// x[i] *= a
__kernel void xgpu_scale_f32(const uint n, const float a, __global float* x) {
  const size_t i = xgpu_index();
  if (i < n) x[i] *= a;
}
