// xgpu_cast: out[i] = in[i] converted between the floating types float, double, half and
// bfloat16, for i < n. Every result is the input correctly rounded (to nearest, ties to
// even); past the largest finite value of a narrower type it is +-infinity; a NaN stays NaN.
// Subnormal results are kept: half and bfloat16 results come from integer arithmetic or from
// vstore_half_rte (exact by definition); a float result from a double is the device's
// conversion, which a device that flushes float subnormals may flush.
//
// Build options: -DXGPU_FROM_<T> -DXGPU_TO_<T>, each T one of FLOAT, DOUBLE, HALF, BFLOAT16
// (float to half when absent); -DXGPU_CAST_W=<2|4|8|16>, the elements of each work-item,
// moved as one vector (4 when absent: 16-byte loads of floats on a GPU; a CPU takes 16).
// Launch at least ceil(n / XGPU_CAST_W) items; the last item takes the elements past the last
// whole vector one at a time.
//
// How: every value but a double widens exactly to float, so a half, bfloat16 or float source
// is converted once, from that float. A double narrowed to half or bfloat16 goes through a
// float rounded to odd (truncated, its lowest bit set when anything nonzero was dropped):
// with 24 bits against the 11 or 8 of the result, a second rounding from it to nearest is
// the correct rounding of the double (no double rounding), and the float's exponent range
// holds every half and bfloat16, subnormals included.
// Requires: OpenCL C 1.2; cl_khr_fp64 when either side is DOUBLE.
#include "xgpu_bfloat16.cl"

#if !defined(XGPU_FROM_FLOAT) && !defined(XGPU_FROM_DOUBLE) && !defined(XGPU_FROM_HALF) && \
    !defined(XGPU_FROM_BFLOAT16)
#define XGPU_FROM_FLOAT
#endif
#if !defined(XGPU_TO_FLOAT) && !defined(XGPU_TO_DOUBLE) && !defined(XGPU_TO_HALF) && \
    !defined(XGPU_TO_BFLOAT16)
#define XGPU_TO_HALF
#endif
#ifndef XGPU_CAST_W
#define XGPU_CAST_W 4
#endif
#if defined(XGPU_FROM_DOUBLE) || defined(XGPU_TO_DOUBLE)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

#define W XGPU_CAST_W
#define V(type) XGPU_CAT(type, W)

#ifdef XGPU_FROM_DOUBLE
// The float nearest |d| from below in magnitude, with its lowest bit set when the truncation
// dropped anything (round to odd), as bits. Beyond float's range: FLT_MAX, which half and
// bfloat16 round to infinity as they would the double. Infinity stays infinity; a NaN becomes
// a quiet NaN with the double's sign and top payload bits. Below FLT_MIN: a float subnormal,
// the double's significand counted in units of 2^-149.
inline uint xgpu_odd_float_bits(const double d) {
  const ulong b = as_ulong(d);
  const uint sign = (uint)(b >> 63) << 31;
  const int e = (int)((b >> 52) & 0x7ff);  // biased by 1023
  const ulong fraction = b & 0xffffffffffffful;
  if (e == 0x7ff) return sign | 0x7f800000u | (fraction ? 0x400000u | (uint)(fraction >> 29) : 0u);
  if (e > 1023 + 127) return sign | 0x7f7fffffu;
  if (e >= 1023 - 126)  // a normal float: exponent and the top 23 fraction bits
    return sign | ((uint)(e - 1023 + 127) << 23) | (uint)(fraction >> 29) |
           (uint)((fraction & 0x1ffffffful) != 0);
  // value = significand * 2^(max(e, 1) - 1075), in units of 2^-149: shifted right by
  // 926 - max(e, 1), which is at least 30 here.
  const ulong significand = e == 0 ? fraction : fraction | (1ul << 52);
  const int shift = 926 - max(e, 1);
  if (shift >= 64) return sign | (uint)(significand != 0);
  const ulong kept = significand >> shift;
  return sign | (uint)kept | (uint)((kept << shift) != significand);
}
#endif

// ---- Loading W (or 1) elements of the source as float (or double) ----
#if defined(XGPU_FROM_FLOAT)
#define FROM_T float
#define LOAD_W(p) V(vload)(0, p)
#define LOAD_1(p) (*(p))
#elif defined(XGPU_FROM_DOUBLE)
#define FROM_T double
#define LOAD_W(p) V(vload)(0, p)
#define LOAD_1(p) (*(p))
#elif defined(XGPU_FROM_HALF)
#define FROM_T half
#define LOAD_W(p) V(vload_half)(0, p)
#define LOAD_1(p) vload_half(0, p)
#else
#define FROM_T ushort
#define LOAD_W(p) V(xgpu_bf16_to_float)(V(vload)(0, p))
#define LOAD_1(p) xgpu_bf16_to_float(*(p))
#endif

// ---- Storing W (or 1) converted elements ----
// STORE_W(v, p) / STORE_1(v, p): v as loaded (floatW, or doubleW from a double).
#if defined(XGPU_TO_FLOAT)
#define TO_T float
#define STORE_W(v, p) V(vstore)(V(convert_float)(v), 0, p)
#define STORE_1(v, p) (*(p) = (float)(v))
#elif defined(XGPU_TO_DOUBLE)
#define TO_T double
#define STORE_W(v, p) V(vstore)(V(convert_double)(v), 0, p)
#define STORE_1(v, p) (*(p) = (double)(v))
#elif defined(XGPU_FROM_DOUBLE)
// A double to half or bfloat16: through the float rounded to odd, lane by lane.
#ifdef XGPU_TO_HALF
#define TO_T half
#define STORE_1(v, p) vstore_half_rte(as_float(xgpu_odd_float_bits(v)), 0, p)
#else
#define TO_T ushort
#define STORE_1(v, p) (*(p) = xgpu_bf16_from_float(as_float(xgpu_odd_float_bits(v))))
#endif
#define STORE_W(v, p)                                       \
  do {                                                      \
    double lanes[W];                                        \
    V(vstore)(v, 0, lanes);                                 \
    for (uint lane = 0; lane < W; ++lane) STORE_1(lanes[lane], (p) + lane); \
  } while (0)
#elif defined(XGPU_TO_HALF)
#define TO_T half
#define STORE_W(v, p) XGPU_CAT(V(vstore_half), _rte)(v, 0, p)
#define STORE_1(v, p) vstore_half_rte(v, 0, p)
#else
#define TO_T ushort
#define STORE_W(v, p) V(vstore)(V(xgpu_bf16_from_float)(v), 0, p)
#define STORE_1(v, p) (*(p) = xgpu_bf16_from_float(v))
#endif

__kernel void xgpu_cast(const uint n, __global const FROM_T* in, __global TO_T* out) {
  const uint first = (uint)get_global_id(0) * W;
  if (first + W <= n) {
    STORE_W(LOAD_W(in + first), out + first);
  } else {
    for (uint i = first; i < n; ++i) STORE_1(LOAD_1(in + i), out + i);
  }
}
