// xgpu OpenCL C prelude for NVRTC, part 4: half arithmetic (cl_khr_fp16) on the half type of
// part 1. From sm_53 on (the first GPUs with f16 instructions) +, - and * and fma are native
// PTX; below, and for what PTX lacks (division, sqrt, the other built-ins), they go through
// float and are rounded once to half. That is exact for + - * / and sqrt: float's 24 bits are
// at least twice half's 11 plus 2, so rounding twice gives the correctly rounded half.
// cl_khr_fp16 is defined only where the module reports it (compute capability >= 5.3).
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 530
#define cl_khr_fp16 1
// .rn on each: PTX lets ptxas fuse an f16 mul and add without a rounding modifier into fma,
// which OpenCL allows only under -cl-mad-enable.
#define XCL_HALF_BINARY(op, instruction)                                                   \
  __device__ inline xcl_half operator op(xcl_half a, xcl_half b) {                         \
    xcl_half r;                                                                            \
    asm(instruction " %0, %1, %2;" : "=h"(r.bits) : "h"(a.bits), "h"(b.bits));             \
    return r;                                                                              \
  }
__device__ inline xcl_half fma(xcl_half a, xcl_half b, xcl_half c) {
  xcl_half r;
  asm("fma.rn.f16 %0, %1, %2, %3;" : "=h"(r.bits) : "h"(a.bits), "h"(b.bits), "h"(c.bits));
  return r;
}
#else
#define XCL_HALF_BINARY(op, instruction)                                                   \
  __device__ inline xcl_half operator op(xcl_half a, xcl_half b) {                         \
    return xcl_half((float)a op (float)b);                                                 \
  }
// In double: a * b is exact there; the sum may round twice (only below sm_53).
__device__ inline xcl_half fma(xcl_half a, xcl_half b, xcl_half c) {
  return xcl_half(::fma((double)a, (double)b, (double)c));
}
#endif
XCL_HALF_BINARY(+, "add.rn.f16")
XCL_HALF_BINARY(-, "sub.rn.f16")
XCL_HALF_BINARY(*, "mul.rn.f16")
__device__ inline xcl_half operator/(xcl_half a, xcl_half b) {
  return xcl_half((float)a / (float)b);
}
// Negation flips the sign bit, NaNs included, as neg.f16 does.
__device__ inline xcl_half operator-(xcl_half a) {
  a.bits ^= 0x8000;
  return a;
}
__device__ inline xcl_half operator+(xcl_half a) { return a; }
// Comparisons through float are exact (every half is a float), NaN unordered.
#define XCL_HALF_COMPARE(op) \
  __device__ inline bool operator op(xcl_half a, xcl_half b) { return (float)a op (float)b; }
XCL_HALF_COMPARE(==) XCL_HALF_COMPARE(!=) XCL_HALF_COMPARE(<) XCL_HALF_COMPARE(>)
XCL_HALF_COMPARE(<=) XCL_HALF_COMPARE(>=)

// Half beside another scalar, by OpenCL's usual arithmetic conversions: an integer becomes
// half, half becomes float or double beside one. These templates match exactly, so they beat
// the built-in operators that half's conversion to float reaches (which would be ambiguous
// with each other: h * 2.0f could convert either operand).
template <class S> struct xcl_half_mixed : xcl_enable_if<xcl_is_integer<S>::value, xcl_half> {};
template <> struct xcl_half_mixed<float> { typedef float type; };
template <> struct xcl_half_mixed<double> { typedef double type; };
#define XCL_HALF_MIXED(op, result)                                                         \
  template <class S>                                                                       \
  __device__ result operator op(xcl_half a, S b) {                                         \
    typedef typename xcl_half_mixed<S>::type T;                                            \
    return T(a) op T(b);                                                                   \
  }                                                                                        \
  template <class S>                                                                       \
  __device__ result operator op(S a, xcl_half b) {                                         \
    typedef typename xcl_half_mixed<S>::type T;                                            \
    return T(a) op T(b);                                                                   \
  }
#define XCL_HALF_ARITHMETIC(op)                                                            \
  XCL_HALF_MIXED(op, typename xcl_half_mixed<S>::type)                                     \
  template <class S>                                                                       \
  __device__ auto operator op##=(xcl_half& a, S b) -> decltype(a = xcl_half(a op b)) {      \
    return a = xcl_half(a op b);                                                           \
  }
XCL_HALF_ARITHMETIC(+) XCL_HALF_ARITHMETIC(-) XCL_HALF_ARITHMETIC(*) XCL_HALF_ARITHMETIC(/)
#define XCL_HALF_MIXED_COMPARE(op) \
  XCL_HALF_MIXED(op, typename xcl_enable_if<sizeof(typename xcl_half_mixed<S>::type) != 0 XCL_COMMA bool>::type)
#define XCL_COMMA ,
XCL_HALF_MIXED_COMPARE(==) XCL_HALF_MIXED_COMPARE(!=) XCL_HALF_MIXED_COMPARE(<)
XCL_HALF_MIXED_COMPARE(>) XCL_HALF_MIXED_COMPARE(<=) XCL_HALF_MIXED_COMPARE(>=)
__device__ inline xcl_half& operator++(xcl_half& a) { return a = a + xcl_half(1.0f); }
__device__ inline xcl_half& operator--(xcl_half& a) { return a = a - xcl_half(1.0f); }
__device__ inline xcl_half operator++(xcl_half& a, int) { xcl_half o = a; ++a; return o; }
__device__ inline xcl_half operator--(xcl_half& a, int) { xcl_half o = a; --a; return o; }

// Math built-ins on half give half (OpenCL), computed in float and rounded once: within the
// half function's error bound wherever the float one meets float's. Without these, half's
// conversion would pick the float overload and the result would stay float.
#define XCL_HALF_MATH1(name) \
  __device__ inline xcl_half name(xcl_half x) { return xcl_half(name((float)x)); }
#define XCL_HALF_MATH2(name) \
  __device__ inline xcl_half name(xcl_half x, xcl_half y) { return xcl_half(name((float)x, (float)y)); }
XCL_HALF_MATH1(sin) XCL_HALF_MATH1(cos) XCL_HALF_MATH1(tan) XCL_HALF_MATH1(asin)
XCL_HALF_MATH1(acos) XCL_HALF_MATH1(atan) XCL_HALF_MATH1(sinh) XCL_HALF_MATH1(cosh)
XCL_HALF_MATH1(tanh) XCL_HALF_MATH1(asinh) XCL_HALF_MATH1(acosh) XCL_HALF_MATH1(atanh)
XCL_HALF_MATH1(exp) XCL_HALF_MATH1(exp2) XCL_HALF_MATH1(exp10) XCL_HALF_MATH1(expm1)
XCL_HALF_MATH1(log) XCL_HALF_MATH1(log2) XCL_HALF_MATH1(log10) XCL_HALF_MATH1(log1p)
XCL_HALF_MATH1(logb) XCL_HALF_MATH1(cbrt) XCL_HALF_MATH1(sqrt) XCL_HALF_MATH1(rsqrt)
XCL_HALF_MATH1(ceil) XCL_HALF_MATH1(floor) XCL_HALF_MATH1(trunc) XCL_HALF_MATH1(round)
XCL_HALF_MATH1(rint) XCL_HALF_MATH1(fabs) XCL_HALF_MATH1(erf) XCL_HALF_MATH1(erfc)
XCL_HALF_MATH1(tgamma) XCL_HALF_MATH1(lgamma) XCL_HALF_MATH1(sinpi) XCL_HALF_MATH1(cospi)
XCL_HALF_MATH1(tanpi) XCL_HALF_MATH1(asinpi) XCL_HALF_MATH1(acospi) XCL_HALF_MATH1(atanpi)
XCL_HALF_MATH1(sign) XCL_HALF_MATH1(degrees) XCL_HALF_MATH1(radians)
XCL_HALF_MATH2(pow) XCL_HALF_MATH2(powr) XCL_HALF_MATH2(atan2) XCL_HALF_MATH2(atan2pi)
XCL_HALF_MATH2(fmod) XCL_HALF_MATH2(fmin) XCL_HALF_MATH2(fmax) XCL_HALF_MATH2(fdim)
XCL_HALF_MATH2(hypot) XCL_HALF_MATH2(copysign) XCL_HALF_MATH2(remainder)
XCL_HALF_MATH2(maxmag) XCL_HALF_MATH2(minmag) XCL_HALF_MATH2(min) XCL_HALF_MATH2(max)
__device__ inline xcl_half pown(xcl_half x, int n) { return xcl_half(pown((float)x, n)); }
__device__ inline xcl_half rootn(xcl_half x, int n) { return xcl_half(rootn((float)x, n)); }
__device__ inline xcl_half ldexp(xcl_half x, int n) { return xcl_half(ldexpf((float)x, n)); }
__device__ inline xcl_half mad(xcl_half a, xcl_half b, xcl_half c) { return a * b + c; }
__device__ inline xcl_half mix(xcl_half x, xcl_half y, xcl_half a) { return x + (y - x) * a; }
__device__ inline xcl_half step(xcl_half e, xcl_half x) { return x < e ? xcl_half(0.0f) : xcl_half(1.0f); }
// Steps in half's own ulps (through float it would round back to x).
__device__ inline xcl_half nextafter(xcl_half x, xcl_half y) {
  if (x != x || y != y) return xcl_half(NAN);
  if (x == y) return y;
  xcl_half r;
  if ((x.bits & 0x7fff) == 0) {
    r.bits = (unsigned short)((y.bits & 0x8000) | 1);  // the smallest subnormal toward y
  } else {
    const bool away = (x < y) == ((x.bits & 0x8000) == 0);  // away from zero
    r.bits = (unsigned short)(away ? x.bits + 1 : x.bits - 1);
  }
  return r;
}
// Half's normal range starts at 2^-14; through float, half's subnormals would be normal.
__device__ inline int isnormal(xcl_half x) {
  const float a = fabs((float)x);
  return a >= 6.103515625e-05f && a < INFINITY ? 1 : 0;
}
