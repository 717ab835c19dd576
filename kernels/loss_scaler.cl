// xgpu_unscale, for xgpu::LossScaler: g[i] = g[i] * inv_scale for i < n, and *found_inf = 1
// when any g[i] was infinite or NaN before scaling (left alone otherwise: several launches
// of a step set one flag). The product is computed in float for half and bfloat16 storage
// (and rounded once, to nearest even, when stored), in the element's own type otherwise.
//
// Build options: -DXGPU_T=<float|double|half> -DXGPU_T_<TYPE>, or bfloat16 as -DXGPU_T=ushort
// -DXGPU_T_BFLOAT16; -DXGPU_UNSCALE_W=<1|16>, consecutive elements per work-item (16 on CPUs,
// a fixed-length loop the compiler vectorizes; 1 elsewhere, so that a warp's accesses
// coalesce). Launch at least ceil(n / XGPU_UNSCALE_W) items.
// Requires: OpenCL C 1.2; cl_khr_fp64 for double.
#include "xgpu_element.cl"

#ifndef XGPU_UNSCALE_W
#define XGPU_UNSCALE_W 1
#endif

// M: what the product is computed in. LOAD / STORE: element i of a __global XGPU_T array.
#if defined(XGPU_T_HALF)
#define M float
#define LOAD(p, i) vload_half((i), (p))
#define STORE(p, i, v) vstore_half_rte((v), (i), (p))
#elif defined(XGPU_T_BFLOAT16)
#define M float
#define LOAD(p, i) xgpu_bf16_to_float((p)[i])
#define STORE(p, i, v) ((p)[i] = xgpu_bf16_from_float(v))
#else
#define M XGPU_T
#define LOAD(p, i) ((p)[i])
#define STORE(p, i, v) ((p)[i] = (v))
#endif

// One element: scaled, and noted in `bad` when it was not finite.
#define UNSCALE_ONE(i)                      \
  do {                                      \
    const M v = LOAD(g, i);                 \
    bad |= (uint)!isfinite(v);              \
    STORE(g, i, v * (M)inv_scale);          \
  } while (0)

__kernel void xgpu_unscale(const uint n, const float inv_scale, __global XGPU_T* g,
                           __global uint* found_inf) {
  const uint first = (uint)get_global_id(0) * XGPU_UNSCALE_W;
  uint bad = 0;
  if (first + XGPU_UNSCALE_W <= n) {
    for (uint k = 0; k < XGPU_UNSCALE_W; ++k) UNSCALE_ONE(first + k);
  } else {
    for (uint i = first; i < n; ++i) UNSCALE_ONE(i);
  }
  // One atomic per work-item that saw a non-finite value; none on a clean step.
  if (bad) atomic_or(found_inf, 1u);
}
