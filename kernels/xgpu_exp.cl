// xgpu_exp_float / xgpu_exp_float16: e^x in float, within the 3 ulp that OpenCL C's full
// profile allows exp (measured against a double reference: about 1 ulp; see
// tests/algorithms/test_softmax.cpp), with the same special values: +inf past 88.72, results
// below FLT_MIN rounded into the subnormals, 0 below -103.97 and for -inf, NaN for NaN.
// Written for CPUs: plain vector arithmetic without branches, which LLVM keeps in vector
// registers, where PoCL 3.1's exp for float16 cost about 40 % of the short-row softmax
// (1M x 16 floats). The softmax's CPU layout uses it; everything else keeps the driver's exp.
//
// Method: e^x = 2^k e^r with k = round(x / ln2) and r = x - k ln2, |r| <= ln2 / 2.
//  - k: x * log2(e) + 1.5 * 2^23 rounds to an integer in the low bits of the float (the
//    "magic number" rounding), so k comes out as bits, never through a float-to-int
//    conversion (which is undefined for NaN in LLVM).
//  - r: Cody and Waite's two-part ln2, its high part with 9 significant bits, so that k times
//    it is exact for |k| <= 2^15 and x - k ln2_hi is exact (x is near k ln2).
//  - e^r: 1 + r + r^2 q(r), q of degree 4, fitted at the Chebyshev nodes of [-0.35, 0.35]
//    to (e^r - 1 - r) / r^2 and rounded to float: relative error 1.1e-8 (0.09 ulp) before
//    the evaluation's roundings. Adding the 1 last keeps its rounding to one half ulp.
//  - 2^k: two powers of two, 2^(k/2) and 2^(k - k/2), each a normal float for every k the
//    clamp allows, so a result below FLT_MIN is rounded once, by the last product.
// x is clamped to [-104, 89] first (e^-104 rounds to 0, e^89 overflows), keeping NaN (the
// comparisons are false for it): then |k| <= 151 and the scale stays in range.
#ifndef XGPU_EXP_CL
#define XGPU_EXP_CL

#define XGPU_EXP_BODY(V, I, U, as_V, as_I, as_U)                                                   \
  const V clamped_low = select(x, (V)(-104.0f), x < (V)(-104.0f));                                 \
  const V clamped = select(clamped_low, (V)(89.0f), clamped_low > (V)(89.0f));                     \
  const V magic = (V)(12582912.0f); /* 1.5 * 2^23 */                                               \
  const V shifted = clamped * (V)(1.44269504089f) + magic;                                         \
  const V k = shifted - magic;                                                                     \
  const V r = (clamped - k * (V)(0.693359375f)) - k * (V)(-2.12194440e-4f);                        \
  const V q = (V)(0.5f) +                                                                          \
              r * ((V)(0.166665733f) + r * ((V)(0.0416665487f) +                                   \
                                            r * ((V)(0.00836376660f) + r * (V)(0.00139269186f)))); \
  const V p = (V)(1.0f) + (r + (r * r) * q);                                                       \
  /* k as an integer: the low bits of shifted, as two's complement (wrapping uint). */             \
  const I k_int = as_I(as_U(shifted) - as_U(magic));                                               \
  const I k_half = k_int >> 1;                                                                     \
  const U first = (as_U(k_half) + (U)(127)) << 23;                                                 \
  const U second = (as_U(k_int) - as_U(k_half) + (U)(127)) << 23;                                  \
  return (p * as_V(first)) * as_V(second)

inline float xgpu_exp_float(const float x) {
  XGPU_EXP_BODY(float, int, uint, as_float, as_int, as_uint);
}
inline float16 xgpu_exp_float16(const float16 x) {
  XGPU_EXP_BODY(float16, int16, uint16, as_float16, as_int16, as_uint16);
}

#endif
