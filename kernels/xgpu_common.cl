// Helpers shared by xgpu's kernels: include with #include "xgpu_common.cl".
// Requires: OpenCL C 1.2.
#ifndef XGPU_COMMON_CL
#define XGPU_COMMON_CL

// A flat index over a 1-D launch that may be rounded up past n: kernels return early
// when xgpu_index() >= n.
#define xgpu_index() get_global_id(0)

#endif
