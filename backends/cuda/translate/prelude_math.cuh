// xgpu OpenCL C prelude for NVRTC, part 3: loads and stores, conversions and the math,
// integer and relational built-ins, scalar and component-wise.

// ---- vloadN / vstoreN, vload_half / vstore_half -------------------------------------------
#define XCL_VLOAD(N)                                                                  \
  template <class T> __device__ xcl_vec<T, N> vload##N(xcl_size_t i, const T* p) {    \
    xcl_vec<T, N> r;                                                                  \
    for (int k = 0; k < N; ++k) r[k] = p[i * N + k];                                  \
    return r;                                                                         \
  }                                                                                   \
  template <class T> __device__ void vstore##N(const xcl_vec<T, N>& v, xcl_size_t i, T* p) { \
    for (int k = 0; k < N; ++k) p[i * N + k] = v[k];                                  \
  }                                                                                   \
  __device__ inline xcl_vec<float, N> vload_half##N(xcl_size_t i, const half* p) {    \
    xcl_vec<float, N> r;                                                              \
    for (int k = 0; k < N; ++k) r[k] = xcl_half_to_float(p[i * N + k]);               \
    return r;                                                                         \
  }                                                                                   \
  __device__ inline xcl_vec<float, N> vloada_half##N(xcl_size_t i, const half* p) {   \
    return vload_half##N(i, p);                                                       \
  }                                                                                   \
  XCL_VSTORE_HALF(N, , rte) XCL_VSTORE_HALF(N, _rte, rte) XCL_VSTORE_HALF(N, _rtz, rtz) \
  XCL_VSTORE_HALF(N, _rtp, rtp) XCL_VSTORE_HALF(N, _rtn, rtn)
#define XCL_VSTORE_HALF(N, suffix, mode)                                                      \
  __device__ inline void vstore_half##N##suffix(const xcl_vec<float, N>& v, xcl_size_t i, half* p) { \
    for (int k = 0; k < N; ++k) p[i * N + k] = xcl_float_to_half_##mode(v[k]);                \
  }                                                                                           \
  __device__ inline void vstore_half##N##suffix(const xcl_vec<double, N>& v, xcl_size_t i, half* p) { \
    for (int k = 0; k < N; ++k) p[i * N + k] = xcl_double_to_half_##mode(v[k]);               \
  }
XCL_VLOAD(2) XCL_VLOAD(3) XCL_VLOAD(4) XCL_VLOAD(8) XCL_VLOAD(16)
__device__ inline float vload_half(xcl_size_t i, const half* p) { return xcl_half_to_float(p[i]); }
#define XCL_VSTORE_HALF1(suffix, mode)                                                             \
  __device__ inline void vstore_half##suffix(float v, xcl_size_t i, half* p) { p[i] = xcl_float_to_half_##mode(v); } \
  __device__ inline void vstore_half##suffix(double v, xcl_size_t i, half* p) { p[i] = xcl_double_to_half_##mode(v); }
XCL_VSTORE_HALF1(, rte) XCL_VSTORE_HALF1(_rte, rte) XCL_VSTORE_HALF1(_rtz, rtz)
XCL_VSTORE_HALF1(_rtp, rtp) XCL_VSTORE_HALF1(_rtn, rtn)

// ---- conversions: convert_<type>[_sat][_<rounding>] ------------------------------------------
// Float to integer rounds toward zero unless asked; _sat clamps and turns NaN into 0. Integer
// and double to float round to nearest unless asked. Rounding is done with CUDA's directed
// conversions (__int2float_rz, __double2float_ru, ...) or, for float to integer, by rounding
// the float first (rint, floor, ceil, trunc are exact).
enum xcl_round { xcl_default, xcl_rte, xcl_rtz, xcl_rtp, xcl_rtn };
template <class T> struct xcl_is_float { static constexpr bool value = false; };
template <> struct xcl_is_float<float> { static constexpr bool value = true; };
template <> struct xcl_is_float<double> { static constexpr bool value = true; };
template <> struct xcl_is_float<half> { static constexpr bool value = true; };
template <class T> struct xcl_limits;
#define XCL_LIMITS(T, lo, hi) template <> struct xcl_limits<T> { \
  __device__ static T min() { return lo; } __device__ static T max() { return hi; } };
XCL_LIMITS(char, CHAR_MIN, CHAR_MAX) XCL_LIMITS(signed char, SCHAR_MIN, SCHAR_MAX)
XCL_LIMITS(uchar, 0, UCHAR_MAX) XCL_LIMITS(short, SHRT_MIN, SHRT_MAX) XCL_LIMITS(ushort, 0, USHRT_MAX)
XCL_LIMITS(int, INT_MIN, INT_MAX) XCL_LIMITS(uint, 0, UINT_MAX) XCL_LIMITS(long, LONG_MIN, LONG_MAX)
XCL_LIMITS(ulong, 0, ULONG_MAX)

template <class F>
__device__ F xcl_round_float(F f, xcl_round r) {
  switch (r) {
    case xcl_rte: return rint(f);
    case xcl_rtp: return ceil(f);
    case xcl_rtn: return floor(f);
    default: return trunc(f);
  }
}
// Float (or double) to an integer type D.
template <class D, class F>
__device__ D xcl_float_to_int(F f, bool sat, xcl_round r) {
  f = xcl_round_float(f, r);
  if (!sat) return (D)f;
  if (f != f) return 0;
  if (f <= (F)xcl_limits<D>::min()) return xcl_limits<D>::min();
  if (f >= (F)xcl_limits<D>::max()) return xcl_limits<D>::max();
  return (D)f;
}
// Integer to an integer type D, saturating when asked.
template <class D, class S>
__device__ D xcl_int_to_int(S s, bool sat) {
  if (!sat) return (D)s;
  const bool s_signed = (S)-1 < (S)0, d_signed = (D)-1 < (D)0;
  if (s_signed && s < 0) {
    if (!d_signed) return 0;
    return (long)s < (long)xcl_limits<D>::min() ? xcl_limits<D>::min() : (D)s;
  }
  return (unsigned long)s > (unsigned long)xcl_limits<D>::max() ? xcl_limits<D>::max() : (D)s;
}
// To float with a rounding mode.
template <class S>
__device__ float xcl_to_float(S s, xcl_round r) {
  const bool s_signed = (S)-1 < (S)0;
  if (sizeof(S) <= 4 && s_signed) {
    int v = (int)s;
    return r == xcl_rtz ? __int2float_rz(v) : r == xcl_rtp ? __int2float_ru(v) : r == xcl_rtn ? __int2float_rd(v) : __int2float_rn(v);
  }
  if (sizeof(S) <= 4) {
    uint v = (uint)s;
    return r == xcl_rtz ? __uint2float_rz(v) : r == xcl_rtp ? __uint2float_ru(v) : r == xcl_rtn ? __uint2float_rd(v) : __uint2float_rn(v);
  }
  if (s_signed) {
    long long v = (long long)s;
    return r == xcl_rtz ? __ll2float_rz(v) : r == xcl_rtp ? __ll2float_ru(v) : r == xcl_rtn ? __ll2float_rd(v) : __ll2float_rn(v);
  }
  unsigned long long v = (unsigned long long)s;
  return r == xcl_rtz ? __ull2float_rz(v) : r == xcl_rtp ? __ull2float_ru(v) : r == xcl_rtn ? __ull2float_rd(v) : __ull2float_rn(v);
}
__device__ inline float xcl_to_float(double s, xcl_round r) {
  return r == xcl_rtz ? __double2float_rz(s) : r == xcl_rtp ? __double2float_ru(s) : r == xcl_rtn ? __double2float_rd(s) : __double2float_rn(s);
}
__device__ inline float xcl_to_float(float s, xcl_round) { return s; }
__device__ inline float xcl_to_float(half s, xcl_round) { return xcl_half_to_float(s); }
template <class S>
__device__ double xcl_to_double(S s, xcl_round r) {
  const bool s_signed = (S)-1 < (S)0;
  if (sizeof(S) <= 4) return (double)s;  // exact
  if (s_signed) {
    long long v = (long long)s;
    return r == xcl_rtz ? __ll2double_rz(v) : r == xcl_rtp ? __ll2double_ru(v) : r == xcl_rtn ? __ll2double_rd(v) : __ll2double_rn(v);
  }
  unsigned long long v = (unsigned long long)s;
  return r == xcl_rtz ? __ull2double_rz(v) : r == xcl_rtp ? __ull2double_ru(v) : r == xcl_rtn ? __ull2double_rd(v) : __ull2double_rn(v);
}
__device__ inline double xcl_to_double(float s, xcl_round) { return s; }
__device__ inline double xcl_to_double(double s, xcl_round) { return s; }
__device__ inline double xcl_to_double(half s, xcl_round) { return xcl_half_to_float(s); }

template <class D, class S>
struct xcl_cvt {
  __device__ static D run(S s, bool sat, xcl_round r) {
    if constexpr (xcl_is_float<S>::value) {
      if constexpr (sizeof(S) == 2) return xcl_cvt<D, float>::run(xcl_half_to_float(s), sat, r);
      else return xcl_float_to_int<D>(s, sat, r);
    } else {
      return xcl_int_to_int<D>(s, sat);
    }
  }
};
template <class S> struct xcl_cvt<float, S> {
  __device__ static float run(S s, bool, xcl_round r) { return xcl_to_float(s, r); }
};
template <class S> struct xcl_cvt<double, S> {
  __device__ static double run(S s, bool, xcl_round r) { return xcl_to_double(s, r); }
};
template <class S> struct xcl_cvt<half, S> {
  __device__ static half run(S s, bool, xcl_round r) {
    double d = xcl_to_double(s, xcl_rte);  // exact for every source but 64-bit integers
    return r == xcl_rtz ? xcl_double_to_half_rtz(d) : r == xcl_rtp ? xcl_double_to_half_rtp(d)
         : r == xcl_rtn ? xcl_double_to_half_rtn(d) : xcl_double_to_half_rte(d);
  }
};
template <class D, class S>
__device__ D xcl_convert(const S& s, bool sat, xcl_round r) { return xcl_cvt<D, S>::run(s, sat, r); }
template <class D, class S, int N>
__device__ xcl_vec<D, N> xcl_convert_vec(const xcl_vec<S, N>& s, bool sat, xcl_round r) {
  xcl_vec<D, N> d;
  for (int i = 0; i < N; ++i) d[i] = xcl_cvt<D, S>::run(s[i], sat, r);
  return d;
}
#define XCL_CONVERT_ONE(T, suffix, sat, r)                                                   \
  template <class S> __device__ T convert_##T##suffix(const S& s) { return xcl_convert<T>(s, sat, r); } \
  template <class S, int M> __device__ xcl_vec<T, M> convert_##T##M##suffix(const xcl_vec<S, M>& s);
#define XCL_CONVERT_VEC(T, N, suffix, sat, r)                                                 \
  template <class S> __device__ xcl_vec<T, N> convert_##T##N##suffix(const xcl_vec<S, N>& s) { \
    return xcl_convert_vec<T>(s, sat, r);                                                     \
  }
#define XCL_CONVERT_MODES(T, N, S)                                                           \
  XCL_CONVERT_VEC(T, N, , false, xcl_default) XCL_CONVERT_VEC(T, N, _rte, false, xcl_rte)    \
  XCL_CONVERT_VEC(T, N, _rtz, false, xcl_rtz) XCL_CONVERT_VEC(T, N, _rtp, false, xcl_rtp)    \
  XCL_CONVERT_VEC(T, N, _rtn, false, xcl_rtn) XCL_CONVERT_VEC(T, N, _sat, true, xcl_default) \
  XCL_CONVERT_VEC(T, N, _sat_rte, true, xcl_rte) XCL_CONVERT_VEC(T, N, _sat_rtz, true, xcl_rtz) \
  XCL_CONVERT_VEC(T, N, _sat_rtp, true, xcl_rtp) XCL_CONVERT_VEC(T, N, _sat_rtn, true, xcl_rtn)
#define XCL_CONVERT_SCALAR(T, suffix, sat, r) \
  template <class S> __device__ T convert_##T##suffix(const S& s) { return xcl_convert<T>(s, sat, r); }
#define XCL_CONVERT_TYPE(T)                                                                  \
  XCL_CONVERT_SCALAR(T, , false, xcl_default) XCL_CONVERT_SCALAR(T, _rte, false, xcl_rte)    \
  XCL_CONVERT_SCALAR(T, _rtz, false, xcl_rtz) XCL_CONVERT_SCALAR(T, _rtp, false, xcl_rtp)    \
  XCL_CONVERT_SCALAR(T, _rtn, false, xcl_rtn) XCL_CONVERT_SCALAR(T, _sat, true, xcl_default) \
  XCL_CONVERT_SCALAR(T, _sat_rte, true, xcl_rte) XCL_CONVERT_SCALAR(T, _sat_rtz, true, xcl_rtz) \
  XCL_CONVERT_SCALAR(T, _sat_rtp, true, xcl_rtp) XCL_CONVERT_SCALAR(T, _sat_rtn, true, xcl_rtn) \
  XCL_CONVERT_MODES(T, 2, ) XCL_CONVERT_MODES(T, 3, ) XCL_CONVERT_MODES(T, 4, )               \
  XCL_CONVERT_MODES(T, 8, ) XCL_CONVERT_MODES(T, 16, )
XCL_CONVERT_TYPE(char) XCL_CONVERT_TYPE(uchar) XCL_CONVERT_TYPE(short) XCL_CONVERT_TYPE(ushort)
XCL_CONVERT_TYPE(int) XCL_CONVERT_TYPE(uint) XCL_CONVERT_TYPE(long) XCL_CONVERT_TYPE(ulong)
XCL_CONVERT_TYPE(float) XCL_CONVERT_TYPE(double) XCL_CONVERT_TYPE(half)

// Scalar-only templates step aside for vectors and swizzles (which would deduce T).
#define XCL_SCALAR(T) class = typename xcl_enable_if<!xcl_is_vec<T>::value>::type

// ---- component-wise lifting of scalar built-ins ---------------------------------------------
// CUDA already has the scalar float and double overloads of the C names (sin, pow, fmin, ...);
// these add the vector ones.
#define XCL_LIFT1(name)                                                              \
  template <class T, int N> __device__ xcl_vec<T, N> name(const xcl_vec<T, N>& a) { \
    xcl_vec<T, N> r;                                                                 \
    for (int i = 0; i < N; ++i) r[i] = name(a[i]);                                   \
    return r;                                                                        \
  }
#define XCL_LIFT2(name)                                                                      \
  template <class T, int N> __device__ xcl_vec<T, N> name(const xcl_vec<T, N>& a, const xcl_vec<T, N>& b) { \
    xcl_vec<T, N> r;                                                                         \
    for (int i = 0; i < N; ++i) r[i] = name(a[i], b[i]);                                     \
    return r;                                                                                \
  }                                                                                          \
  template <class T, int N> __device__ xcl_vec<T, N> name(const xcl_vec<T, N>& a, T b) {     \
    return name(a, xcl_vec<T, N>(b));                                                        \
  }
#define XCL_LIFT3(name)                                                                      \
  template <class T, int N> __device__ xcl_vec<T, N> name(const xcl_vec<T, N>& a, const xcl_vec<T, N>& b, const xcl_vec<T, N>& c) { \
    xcl_vec<T, N> r;                                                                         \
    for (int i = 0; i < N; ++i) r[i] = name(a[i], b[i], c[i]);                               \
    return r;                                                                                \
  }
XCL_LIFT1(sin) XCL_LIFT1(cos) XCL_LIFT1(tan) XCL_LIFT1(asin) XCL_LIFT1(acos) XCL_LIFT1(atan)
XCL_LIFT1(sinh) XCL_LIFT1(cosh) XCL_LIFT1(tanh) XCL_LIFT1(asinh) XCL_LIFT1(acosh) XCL_LIFT1(atanh)
XCL_LIFT1(exp) XCL_LIFT1(exp2) XCL_LIFT1(exp10) XCL_LIFT1(expm1) XCL_LIFT1(log) XCL_LIFT1(log2)
XCL_LIFT1(log10) XCL_LIFT1(log1p) XCL_LIFT1(logb) XCL_LIFT1(cbrt) XCL_LIFT1(sqrt) XCL_LIFT1(rsqrt)
XCL_LIFT1(ceil) XCL_LIFT1(floor) XCL_LIFT1(trunc) XCL_LIFT1(round) XCL_LIFT1(rint) XCL_LIFT1(fabs)
XCL_LIFT1(erf) XCL_LIFT1(erfc) XCL_LIFT1(tgamma) XCL_LIFT1(lgamma) XCL_LIFT1(sinpi) XCL_LIFT1(cospi)
XCL_LIFT2(pow) XCL_LIFT2(atan2) XCL_LIFT2(fmod) XCL_LIFT2(fmin) XCL_LIFT2(fmax) XCL_LIFT2(fdim)
XCL_LIFT2(hypot) XCL_LIFT2(copysign) XCL_LIFT2(nextafter) XCL_LIFT2(remainder) XCL_LIFT2(min)
XCL_LIFT2(max)
XCL_LIFT3(fma)

// ---- OpenCL-only math, scalar then lifted -----------------------------------------------------
#define XCL_FD(decl) __device__ inline float decl; __device__ inline double decl
__device__ inline float tanpi(float x) { return sinpi(x) / cospi(x); }
__device__ inline double tanpi(double x) { return sinpi(x) / cospi(x); }
__device__ inline float asinpi(float x) { return asin(x) * 0.318309886183790671538f; }
__device__ inline double asinpi(double x) { return asin(x) / M_PI; }
__device__ inline float acospi(float x) { return acos(x) * 0.318309886183790671538f; }
__device__ inline double acospi(double x) { return acos(x) / M_PI; }
__device__ inline float atanpi(float x) { return atan(x) * 0.318309886183790671538f; }
__device__ inline double atanpi(double x) { return atan(x) / M_PI; }
__device__ inline float atan2pi(float y, float x) { return atan2(y, x) * 0.318309886183790671538f; }
__device__ inline double atan2pi(double y, double x) { return atan2(y, x) / M_PI; }
// pown and rootn in double: n converted to float would round above 2^24 (and flip the sign
// of an odd power), and 1.0f / n is too inexact for rootn's 4 ulp over the whole range.
__device__ inline float pown(float x, int n) { return (float)pow((double)x, (double)n); }
__device__ inline double pown(double x, int n) { return pow(x, (double)n); }
// powr: pow for x >= 0 only, with the special cases OpenCL gives it (NaN where pow has 1).
template <class F> __device__ F xcl_powr(F x, F y) {
  if (x < 0 || x != x || y != y) return (F)NAN;
  if (x == 0 && y == 0) return (F)NAN;
  if (x == (F)INFINITY && y == 0) return (F)NAN;
  if (x == 1 && (y == (F)INFINITY || y == -(F)INFINITY)) return (F)NAN;
  return pow(x, y);
}
__device__ inline float powr(float x, float y) { return xcl_powr(x, y); }
__device__ inline double powr(double x, double y) { return xcl_powr(x, y); }
__device__ inline float rootn(float x, int n) {
  if (n == 0 || (x < 0.0f && (n & 1) == 0)) return NAN;
  float r = (float)pow(fabs((double)x), 1.0 / (double)n);
  return ::signbit(x) ? -r : r;  // -0 keeps its sign: rootn(-0, -3) is -inf
}
__device__ inline double rootn(double x, int n) {
  if (n == 0 || (x < 0.0 && (n & 1) == 0)) return NAN;
  double r = pow(fabs(x), 1.0 / (double)n);
  return ::signbit(x) ? -r : r;
}
__device__ inline float fract(float x, float* ip) {
  float f = floor(x);
  *ip = f;
  if (x != x) return x;
  return isinf(x) ? copysign(0.0f, x) : fmin(x - f, 0x1.fffffep-1f);
}
__device__ inline double fract(double x, double* ip) {
  double f = floor(x);
  *ip = f;
  if (x != x) return x;
  return isinf(x) ? copysign(0.0, x) : fmin(x - f, 0x1.fffffffffffffp-1);
}
__device__ inline float mad(float a, float b, float c) { return a * b + c; }
__device__ inline double mad(double a, double b, double c) { return a * b + c; }
__device__ inline float maxmag(float x, float y) {
  float ax = fabs(x), ay = fabs(y);
  return ax > ay ? x : ay > ax ? y : fmax(x, y);
}
__device__ inline double maxmag(double x, double y) {
  double ax = fabs(x), ay = fabs(y);
  return ax > ay ? x : ay > ax ? y : fmax(x, y);
}
__device__ inline float minmag(float x, float y) {
  float ax = fabs(x), ay = fabs(y);
  return ax < ay ? x : ay < ax ? y : fmin(x, y);
}
__device__ inline double minmag(double x, double y) {
  double ax = fabs(x), ay = fabs(y);
  return ax < ay ? x : ay < ax ? y : fmin(x, y);
}
__device__ inline float lgamma_r(float x, int* sign) {
  // Gamma is negative on (-1, 0), (-3, -2), ...: where floor(x) is odd. Poles: unspecified.
  float r = lgamma(x);
  *sign = 1;
  if (x < 0.0f && x != floor(x)) *sign = (((long)floor(x)) & 1) ? -1 : 1;
  return r;
}
__device__ inline double lgamma_r(double x, int* sign) {
  double r = lgamma(x);
  *sign = 1;
  if (x < 0.0 && x != floor(x)) *sign = (((long)floor(x)) & 1) ? -1 : 1;
  return r;
}
__device__ inline float sincos(float x, float* c) { float s; sincosf(x, &s, c); return s; }
__device__ inline double sincos(double x, double* c) { double s; ::sincos(x, &s, c); return s; }
__device__ inline float mix(float x, float y, float a) { return x + (y - x) * a; }
__device__ inline double mix(double x, double y, double a) { return x + (y - x) * a; }
__device__ inline float step(float e, float x) { return x < e ? 0.0f : 1.0f; }
__device__ inline double step(double e, double x) { return x < e ? 0.0 : 1.0; }
__device__ inline float smoothstep(float e0, float e1, float x) {
  float t = fmin(fmax((x - e0) / (e1 - e0), 0.0f), 1.0f);
  return t * t * (3.0f - 2.0f * t);
}
__device__ inline float sign(float x) { return x > 0.0f ? 1.0f : x < 0.0f ? -1.0f : x != x ? 0.0f : x; }
__device__ inline double sign(double x) { return x > 0.0 ? 1.0 : x < 0.0 ? -1.0 : x != x ? 0.0 : x; }
__device__ inline float degrees(float r) { return r * 57.295779513082320876798f; }
__device__ inline float radians(float d) { return d * 0.017453292519943295769f; }
__device__ inline double degrees(double r) { return r * 57.295779513082320876798; }
__device__ inline double radians(double d) { return d * 0.017453292519943295769; }
XCL_LIFT1(tanpi) XCL_LIFT1(asinpi) XCL_LIFT1(acospi) XCL_LIFT1(atanpi) XCL_LIFT2(atan2pi)
XCL_LIFT2(powr) XCL_LIFT2(maxmag) XCL_LIFT2(minmag) XCL_LIFT3(mad) XCL_LIFT1(sign)
XCL_LIFT1(degrees) XCL_LIFT1(radians)
template <class T, int N> __device__ xcl_vec<T, N> mix(const xcl_vec<T, N>& x, const xcl_vec<T, N>& y, T a) {
  return x + (y - x) * a;
}
XCL_LIFT3(mix)
// clamp, for scalars (int and float alike) and vectors.
template <class T, XCL_SCALAR(T)> __device__ T clamp(T x, T lo, T hi) { return min(max(x, lo), hi); }
template <class T, int N> __device__ xcl_vec<T, N> clamp(const xcl_vec<T, N>& x, T lo, T hi) {
  return min(max(x, xcl_vec<T, N>(lo)), xcl_vec<T, N>(hi));
}
template <class T, int N> __device__ xcl_vec<T, N> clamp(const xcl_vec<T, N>& x, const xcl_vec<T, N>& lo, const xcl_vec<T, N>& hi) {
  return min(max(x, lo), hi);
}

// half_* (8192 ulp allowed) and native_* (implementation-defined): the full-precision
// function satisfies both. native_divide / native_recip stay exact divisions too.
#define half_sin sin
#define half_cos cos
#define half_tan tan
#define half_exp exp
#define half_exp2 exp2
#define half_exp10 exp10
#define half_log log
#define half_log2 log2
#define half_log10 log10
#define half_sqrt sqrt
#define half_rsqrt rsqrt
#define half_powr powr
#define native_sin sin
#define native_cos cos
#define native_tan tan
#define native_exp exp
#define native_exp2 exp2
#define native_exp10 exp10
#define native_log log
#define native_log2 log2
#define native_log10 log10
#define native_sqrt sqrt
#define native_rsqrt rsqrt
#define native_powr powr
template <class T> __device__ T native_divide(T a, T b) { return a / b; }
template <class T> __device__ T half_divide(T a, T b) { return a / b; }
template <class T> __device__ T native_recip(T a) { return (T)1 / a; }
template <class T> __device__ T half_recip(T a) { return (T)1 / a; }

// ---- relational -----------------------------------------------------------------------------
// Scalars answer 1 or 0 (int); vectors -1 or 0 per component (OpenCL).
#define XCL_CLASSIFY(name, expr)                                                           \
  __device__ inline int name(float x) { return (expr) ? 1 : 0; }                          \
  __device__ inline int name(double x) { return (expr) ? 1 : 0; }                         \
  template <class T, int N> __device__ xcl_vec<typename xcl_mask<T>::type, N> name(const xcl_vec<T, N>& v) { \
    xcl_vec<typename xcl_mask<T>::type, N> r;                                              \
    for (int i = 0; i < N; ++i) r[i] = name(v[i]) ? -1 : 0;                                \
    return r;                                                                              \
  }
#define XCL_CLASSIFY_FN(name, fn) XCL_CLASSIFY(name, fn(x))
XCL_CLASSIFY(xcl_isnan, x != x)
XCL_CLASSIFY(xcl_isinf, fabs(x) == (decltype(x))INFINITY)
XCL_CLASSIFY(xcl_isfinite, fabs(x) < (decltype(x))INFINITY)
XCL_CLASSIFY(isnormal, fabs(x) >= (sizeof(x) == 4 ? (double)FLT_MIN : DBL_MIN) && fabs(x) < (decltype(x))INFINITY)
XCL_CLASSIFY(xcl_signbit, ::signbit(x))
#define isnan xcl_isnan
#define isinf xcl_isinf
#define isfinite xcl_isfinite
#define signbit xcl_signbit
#define XCL_RELATION(name, expr)                                                          \
  __device__ inline int name(float x, float y) { return (expr) ? 1 : 0; }                \
  __device__ inline int name(double x, double y) { return (expr) ? 1 : 0; }              \
  template <class T, int N> __device__ xcl_vec<typename xcl_mask<T>::type, N> name(const xcl_vec<T, N>& a, const xcl_vec<T, N>& b) { \
    xcl_vec<typename xcl_mask<T>::type, N> r;                                             \
    for (int i = 0; i < N; ++i) r[i] = name(a[i], b[i]) ? -1 : 0;                         \
    return r;                                                                             \
  }
XCL_RELATION(isequal, x == y)
XCL_RELATION(isnotequal, x != y)
XCL_RELATION(isgreater, x > y)
XCL_RELATION(isgreaterequal, x >= y)
XCL_RELATION(isless, x < y)
XCL_RELATION(islessequal, x <= y)
XCL_RELATION(islessgreater, x < y || x > y)
XCL_RELATION(isordered, x == x && y == y)
XCL_RELATION(isunordered, x != x || y != y)
// any / all: the most significant bit of each component.
template <class T, XCL_SCALAR(T)> __device__ int any(T x) { return x < 0; }
template <class T, XCL_SCALAR(T)> __device__ int all(T x) { return x < 0; }
template <class T, int N> __device__ int any(const xcl_vec<T, N>& v) {
  for (int i = 0; i < N; ++i) if (v[i] < 0) return 1;
  return 0;
}
template <class T, int N> __device__ int all(const xcl_vec<T, N>& v) {
  for (int i = 0; i < N; ++i) if (!(v[i] < 0)) return 0;
  return 1;
}
// select(a, b, c): scalar c: c ? b : a; vector c: its most significant bit per component.
template <class T, class C, XCL_SCALAR(T)> __device__ T select(T a, T b, C c) { return c ? b : a; }
template <class T, int N, class C> __device__ xcl_vec<T, N> select(const xcl_vec<T, N>& a, const xcl_vec<T, N>& b, const xcl_vec<C, N>& c) {
  xcl_vec<T, N> r;
  // The most significant bit, for signed and unsigned c alike.
  for (int i = 0; i < N; ++i) r[i] = ((c[i] >> (sizeof(C) * 8 - 1)) & 1) ? b[i] : a[i];
  return r;
}
template <class T, XCL_SCALAR(T)> __device__ T bitselect(T a, T b, T c) {
  typedef typename xcl_atomic_word<decltype(xcl_as<typename xcl_mask<T>::type>(a))>::type W;
  W ra = xcl_as<W>(a), rb = xcl_as<W>(b), rc = xcl_as<W>(c);
  return xcl_as<T>((W)((ra & ~rc) | (rb & rc)));
}

template <class T, int N> __device__ xcl_vec<T, N> bitselect(const xcl_vec<T, N>& a, const xcl_vec<T, N>& b, const xcl_vec<T, N>& c) {
  xcl_vec<T, N> r;
  for (int i = 0; i < N; ++i) r[i] = bitselect(a[i], b[i], c[i]);
  return r;
}

// ---- integer -----------------------------------------------------------------------------------
template <class T> struct xcl_unsigned { typedef T type; };
template <> struct xcl_unsigned<char> { typedef uchar type; };
template <> struct xcl_unsigned<signed char> { typedef uchar type; };
template <> struct xcl_unsigned<short> { typedef ushort type; };
template <> struct xcl_unsigned<int> { typedef uint type; };
template <> struct xcl_unsigned<long> { typedef ulong type; };
template <class T, XCL_SCALAR(T)> __device__ typename xcl_unsigned<T>::type xcl_abs(T x) {
  return x < 0 ? (typename xcl_unsigned<T>::type)(0 - (typename xcl_unsigned<T>::type)x) : (typename xcl_unsigned<T>::type)x;
}
__device__ inline float xcl_abs(float x) { return fabs(x); }
__device__ inline double xcl_abs(double x) { return fabs(x); }
#define abs xcl_abs
template <class T, XCL_SCALAR(T)> __device__ typename xcl_unsigned<T>::type abs_diff(T x, T y) {
  return x > y ? (typename xcl_unsigned<T>::type)x - (typename xcl_unsigned<T>::type)y
               : (typename xcl_unsigned<T>::type)y - (typename xcl_unsigned<T>::type)x;
}
template <class T, XCL_SCALAR(T)> __device__ T add_sat(T x, T y) {
  T r = (T)((typename xcl_unsigned<T>::type)x + (typename xcl_unsigned<T>::type)y);
  if ((T)-1 > 0) return r < x ? xcl_limits<T>::max() : r;
  if (y > 0 && r < x) return xcl_limits<T>::max();
  if (y < 0 && r > x) return xcl_limits<T>::min();
  return r;
}
template <class T, XCL_SCALAR(T)> __device__ T sub_sat(T x, T y) {
  T r = (T)((typename xcl_unsigned<T>::type)x - (typename xcl_unsigned<T>::type)y);
  if ((T)-1 > 0) return r > x ? (T)0 : r;
  if (y < 0 && r < x) return xcl_limits<T>::max();
  if (y > 0 && r > x) return xcl_limits<T>::min();
  return r;
}
__device__ inline int mul_hi(int a, int b) { return __mulhi(a, b); }
__device__ inline uint mul_hi(uint a, uint b) { return __umulhi(a, b); }
__device__ inline long mul_hi(long a, long b) { return __mul64hi(a, b); }
__device__ inline ulong mul_hi(ulong a, ulong b) { return __umul64hi(a, b); }
template <class T, XCL_SCALAR(T)> __device__ T mad_hi(T a, T b, T c) { return mul_hi(a, b) + c; }
// mad_sat: exact in 64 bits for the narrow types; for 64-bit ones the 128-bit product is
// checked through its high half.
template <class T, XCL_SCALAR(T)> __device__ T mad_sat(T a, T b, T c) {
  if constexpr (sizeof(T) < 8) {
    long long r = (long long)a * (long long)b + (long long)c;
    return r > (long long)xcl_limits<T>::max() ? xcl_limits<T>::max()
         : r < (long long)xcl_limits<T>::min() ? xcl_limits<T>::min() : (T)r;
  } else if constexpr ((T)-1 > (T)0) {
    unsigned long long hi = __umul64hi(a, b), lo = (unsigned long long)a * b, r = lo + c;
    return (hi != 0 || r < lo) ? xcl_limits<T>::max() : (T)r;
  } else {
    long long hi = __mul64hi(a, b);
    unsigned long long lo = (unsigned long long)a * (unsigned long long)b;
    unsigned long long r = lo + (unsigned long long)c;
    // Add c's sign extension and the carry to the high half.
    hi += (c < 0 ? -1 : 0) + (r < lo ? 1 : 0);
    if (hi == 0 && (long long)r >= 0) return (T)r;
    if (hi == -1 && (long long)r < 0) return (T)r;
    return hi < 0 ? xcl_limits<T>::min() : xcl_limits<T>::max();
  }
}
XCL_LIFT3(mad_sat)
__device__ inline int mul24(int a, int b) { return __mul24(a, b); }
__device__ inline uint mul24(uint a, uint b) { return __umul24(a, b); }
template <class T, XCL_SCALAR(T)> __device__ T mad24(T a, T b, T c) { return mul24(a, b) + c; }
// 8- and 16-bit types count in their own width (a promotion to int would count in 32).
#define XCL_NARROW_BITS(T, U, bits)                                                          \
  __device__ inline T clz(T x) { return (T)(__clz((int)(uint)(U)x) - (32 - bits)); }         \
  __device__ inline T ctz(T x) { return (U)x == 0 ? (T)bits : (T)(__ffs((int)(uint)(U)x) - 1); } \
  __device__ inline T popcount(T x) { return (T)__popc((uint)(U)x); }                        \
  __device__ inline T mul_hi(T a, T b) { return (T)(((int)a * (int)b) >> bits); }
XCL_NARROW_BITS(char, uchar, 8)
XCL_NARROW_BITS(signed char, uchar, 8)
XCL_NARROW_BITS(uchar, uchar, 8)
XCL_NARROW_BITS(short, ushort, 16)
XCL_NARROW_BITS(ushort, ushort, 16)
__device__ inline int clz(int x) { return __clz(x); }
__device__ inline uint clz(uint x) { return __clz((int)x); }
__device__ inline long clz(long x) { return __clzll(x); }
__device__ inline ulong clz(ulong x) { return __clzll((long long)x); }
__device__ inline int ctz(int x) { return x == 0 ? 32 : __ffs(x) - 1; }
__device__ inline uint ctz(uint x) { return x == 0 ? 32 : __ffs((int)x) - 1; }
__device__ inline long ctz(long x) { return x == 0 ? 64 : __ffsll(x) - 1; }
__device__ inline ulong ctz(ulong x) { return x == 0 ? 64 : __ffsll((long long)x) - 1; }
__device__ inline int popcount(int x) { return __popc((uint)x); }
__device__ inline uint popcount(uint x) { return __popc(x); }
__device__ inline long popcount(long x) { return __popcll((unsigned long long)x); }
__device__ inline ulong popcount(ulong x) { return __popcll(x); }
template <class T, XCL_SCALAR(T)> __device__ T rotate(T v, T n) {
  typedef typename xcl_unsigned<T>::type U;
  const int bits = sizeof(T) * 8;
  U u = (U)v, s = (U)n & (U)(bits - 1);
  return (T)(s == 0 ? u : (U)((u << s) | (u >> (bits - s))));
}
template <class T, XCL_SCALAR(T)> __device__ T hadd(T x, T y) { return (x >> 1) + (y >> 1) + (x & y & 1); }
template <class T, XCL_SCALAR(T)> __device__ T rhadd(T x, T y) { return (x >> 1) + (y >> 1) + ((x | y) & 1); }
__device__ inline short upsample(char h, uchar l) { return (short)(((ushort)(uchar)h << 8) | l); }
__device__ inline ushort upsample(uchar h, uchar l) { return (ushort)((h << 8) | l); }
__device__ inline int upsample(short h, ushort l) { return (int)(((uint)(ushort)h << 16) | l); }
__device__ inline uint upsample(ushort h, ushort l) { return ((uint)h << 16) | l; }
__device__ inline long upsample(int h, uint l) { return (long)(((ulong)(uint)h << 32) | l); }
__device__ inline ulong upsample(uint h, uint l) { return ((ulong)h << 32) | l; }
template <class T, int N>
__device__ xcl_vec<typename xcl_unsigned<T>::type, N> abs_diff(const xcl_vec<T, N>& a, const xcl_vec<T, N>& b) {
  xcl_vec<typename xcl_unsigned<T>::type, N> r;
  for (int i = 0; i < N; ++i) r[i] = abs_diff(a[i], b[i]);
  return r;
}
template <class T, int N>
__device__ xcl_vec<typename xcl_unsigned<T>::type, N> xcl_abs(const xcl_vec<T, N>& a) {
  xcl_vec<typename xcl_unsigned<T>::type, N> r;
  for (int i = 0; i < N; ++i) r[i] = xcl_abs(a[i]);
  return r;
}
// nan(code): a quiet NaN carrying `code` in its mantissa (CUDA's nan takes a string).
__device__ inline float nan(uint code) { return __int_as_float(0x7fc00000 | (code & 0x3fffff)); }
__device__ inline double nan(ulong code) {
  return __longlong_as_double(0x7ff8000000000000LL | (long long)(code & 0x7ffffffffffffULL));
}
XCL_LIFT2(add_sat) XCL_LIFT2(sub_sat) XCL_LIFT2(mul_hi) XCL_LIFT2(rotate) XCL_LIFT2(hadd)
XCL_LIFT2(rhadd) XCL_LIFT1(clz) XCL_LIFT1(popcount) XCL_LIFT3(mad24) XCL_LIFT2(mul24)

// vec_step: the number of components (3-vectors: 4, as OpenCL defines).
template <class T> struct xcl_vec_step { static constexpr int value = 1; };
template <class T, int N> struct xcl_vec_step<xcl_vec<T, N>> { static constexpr int value = N == 3 ? 4 : N; };
template <class T> struct xcl_plain { typedef T type; };
template <class T> struct xcl_plain<T&> { typedef typename xcl_plain<T>::type type; };
template <class T> struct xcl_plain<const T> { typedef typename xcl_plain<T>::type type; };
template <class T> struct xcl_plain<volatile T> { typedef typename xcl_plain<T>::type type; };
template <class T, int K> struct xcl_vec_step<xcl_swizzle<T, K>> { static constexpr int value = K == 3 ? 4 : K; };
// vec_step(<type>) is rewritten by the translation (a macro cannot take a type here).
#define vec_step(x) (xcl_vec_step<typename xcl_plain<decltype(x)>::type>::value)

// Vector math with pointer outputs and integer arguments (component-wise).
template <class T, int N> __device__ xcl_vec<T, N> ldexp(const xcl_vec<T, N>& x, const xcl_vec<int, N>& e) {
  xcl_vec<T, N> r;
  for (int i = 0; i < N; ++i) r[i] = ldexp(x[i], e[i]);
  return r;
}
template <class T, int N> __device__ xcl_vec<T, N> pown(const xcl_vec<T, N>& x, const xcl_vec<int, N>& e) {
  xcl_vec<T, N> r;
  for (int i = 0; i < N; ++i) r[i] = pown(x[i], e[i]);
  return r;
}
