// The element type of the typed library kernels: build with -DXGPU_T=<type>
// -DXGPU_T_<TYPE> (float, double, int, uint, half; bfloat16 as -DXGPU_T=ushort
// -DXGPU_T_BFLOAT16; see runtime/algorithms/src/support.hpp).
// Built without options (as xgpu::kernels::source() users may), it is float. Include it
// instead of xgpu_common.cl, which it includes.
#ifndef XGPU_ELEMENT_CL
#define XGPU_ELEMENT_CL

#ifndef XGPU_T
#define XGPU_T float
#define XGPU_T_FLOAT
#endif
#include "xgpu_common.cl"
#ifdef XGPU_T_BFLOAT16
#include "xgpu_bfloat16.cl"
#endif

#endif
