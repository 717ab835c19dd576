// Helpers shared by xgpu's kernels: include with #include "xgpu_common.cl".
// Requires: OpenCL C 1.2.
#ifndef XGPU_COMMON_CL
#define XGPU_COMMON_CL

// A flat index over a 1-D launch that may be rounded up past n: kernels return early
// when xgpu_index() >= n.
#define xgpu_index() get_global_id(0)

// Double precision for the typed library files built with -DXGPU_T_DOUBLE.
#ifdef XGPU_T_DOUBLE
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

// Token pasting after expansion: XGPU_CAT(vload, XGPU_W) is vload16 when XGPU_W is 16.
#define XGPU_CAT_(a, b) a##b
#define XGPU_CAT(a, b) XGPU_CAT_(a, b)

#endif
