// bfloat16 in kernels: OpenCL C has no such type, so a bfloat16 is held as the ushort of its
// bits (the top half of a float's). For scalars and vectors of 2, 4, 8 and 16:
//   xgpu_bf16_to_float[N](ushortN)    the exact float value (bits << 16)
//   xgpu_bf16_from_float[N](floatN)   the nearest bfloat16, ties to even; past the largest
//                                     finite value +-infinity; a NaN stays NaN (made quiet)
// Integer arithmetic only, so float subnormals round to bfloat16 subnormals on every device,
// whatever its float arithmetic does with them. The same rule as xgpu::to_bfloat16 on the
// host (runtime/include/xgpu/bfloat16.hpp).
// Requires: OpenCL C 1.2.
#ifndef XGPU_BFLOAT16_CL
#define XGPU_BFLOAT16_CL

#include "xgpu_common.cl"

// Adding just under half a unit of the kept bits, plus the kept lowest bit, carries into them
// exactly when the dropped half-word is above half a unit, or is half and the kept part is
// odd; a carry past the largest finite value gives the infinity pattern 0x7f80. A NaN keeps
// its sign and top payload bits, with the quiet bit set (its payload may lie in the dropped
// bits only). select() picks its second operand where the comparison holds.
#define XGPU_BF16_DEFINE(N)                                                                     \
  inline XGPU_CAT(float, N) XGPU_CAT(xgpu_bf16_to_float, N)(const XGPU_CAT(ushort, N) b) {      \
    return XGPU_CAT(as_float, N)(XGPU_CAT(convert_uint, N)(b) << 16);                           \
  }                                                                                             \
  inline XGPU_CAT(ushort, N) XGPU_CAT(xgpu_bf16_from_float, N)(const XGPU_CAT(float, N) f) {    \
    const XGPU_CAT(uint, N) u = XGPU_CAT(as_uint, N)(f);                                        \
    const XGPU_CAT(uint, N) rounded = (u + 0x7fffu + ((u >> 16) & 1u)) >> 16;                   \
    const XGPU_CAT(uint, N) quiet = (u >> 16) | 0x40u;                                          \
    return XGPU_CAT(convert_ushort, N)(select(rounded, quiet, (u & 0x7fffffffu) > 0x7f800000u)); \
  }

XGPU_BF16_DEFINE()
XGPU_BF16_DEFINE(2)
XGPU_BF16_DEFINE(4)
XGPU_BF16_DEFINE(8)
XGPU_BF16_DEFINE(16)

#endif
