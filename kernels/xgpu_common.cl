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

// Non-temporal stores, for whole aligned cache lines that nothing will read soon: the line
// goes to memory without being read first (a plain store's read for ownership) and without
// evicting other data from the caches. They are weakly ordered: a work-item that used
// XGPU_STREAM_STORE ends with XGPU_STREAM_FENCE, which makes them visible before the kernel
// completes (x86's sfence, as memcpy ends its own; else OpenCL's fence). Plain stores where
// the compiler offers neither builtin.
#ifdef __has_builtin
#if __has_builtin(__builtin_nontemporal_store)
#define XGPU_STREAM_STORE(value, pointer) __builtin_nontemporal_store((value), (pointer))
#endif
#if __has_builtin(__builtin_ia32_sfence)
#define XGPU_STREAM_FENCE() __builtin_ia32_sfence()
#endif
#endif
#ifndef XGPU_STREAM_STORE
#define XGPU_STREAM_STORE(value, pointer) (*(pointer) = (value))
#endif
#ifndef XGPU_STREAM_FENCE
#define XGPU_STREAM_FENCE() mem_fence(CLK_GLOBAL_MEM_FENCE)
#endif

#endif
