// Host references of the math suite that the C library lacks or defines differently from
// OpenCL C: the pi functions (reduced exactly before multiplying by pi), powr, pown and
// rootn with the spec's special cases, maxmag/minmag, and the second results of the
// two-result built-ins. All in long double; the inputs are floats, so the reductions below
// (fmodl, 1 - r, r + 1/2) are exact.
#pragma once

#include <climits>
#include <cmath>
#include <cstdlib>

namespace xgpu::conform::math::ref {

using L = long double;
constexpr L kPi = 3.141592653589793238462643383279502884L;

/// convert_int_sat of a float: NaN is 0, out-of-range values clamp, others truncate.
inline int saturated_int(L b) {
  if (std::isnan(b)) return 0;
  if (b <= INT_MIN) return INT_MIN;
  if (b >= INT_MAX) return INT_MAX;
  return static_cast<int>(b);
}

// sin(pi r) for r in [0, 2), reduced to [0, 1/2] so that pi * r keeps its digits near the
// zeros of the sine.
inline L sinpi_reduced(L r) {
  L sign = 1;
  if (r >= 1) r -= 1, sign = -1;
  if (r > 0.5L) r = 1 - r;
  return sign * sinl(kPi * r);
}

inline L sinpi(L a) {
  if (!std::isfinite(a)) return NAN;
  const L s = sinpi_reduced(fmodl(fabsl(a), 2));
  return a < 0 ? -s : s;
}

/// cospi(n + 1/2) is +0 (the spec), which also gives tanpi's signed infinities.
inline L cospi(L a) {
  if (!std::isfinite(a)) return NAN;
  const L r = fmodl(fabsl(a), 2);
  if (r <= 0.25L) return cosl(kPi * r);
  L shifted = r + 0.5L;  // exact: r > 1/4 has no bit below 2^-25
  if (shifted >= 2) shifted -= 2;
  const L c = sinpi_reduced(shifted);
  return c == 0 ? 0.0L : c;
}

inline L tanpi(L a) { return sinpi(a) / cospi(a); }

inline L powr(L x, L y) {
  if (std::isnan(x) || std::isnan(y) || x < 0) return NAN;
  if (x == 0) return y == 0 ? NAN : y < 0 ? INFINITY : 0;
  if (std::isinf(x)) return y == 0 ? NAN : y < 0 ? 0 : INFINITY;
  if (x == 1) return std::isinf(y) ? NAN : 1;
  return powl(x, y);
}

inline L pown(L x, L b) { return powl(x, static_cast<L>(saturated_int(b))); }

inline L rootn(L x, L b) {
  const int n = saturated_int(b);
  const bool odd = (n & 1) != 0;
  if (n == 0 || std::isnan(x) || (x < 0 && !odd)) return NAN;
  if (x == 0) return n < 0 ? (odd ? copysignl(INFINITY, x) : INFINITY) : (odd ? x : 0.0L);
  if (std::isinf(x)) return n < 0 ? (odd ? copysignl(0.0L, x) : 0.0L) : x;
  const L root = powl(fabsl(x), 1.0L / n);
  return x < 0 ? -root : root;
}

inline L maxmag(L a, L b) {
  if (fabsl(a) > fabsl(b)) return a;
  if (fabsl(b) > fabsl(a)) return b;
  return fmaxl(a, b);
}

inline L minmag(L a, L b) {
  if (fabsl(a) < fabsl(b)) return a;
  if (fabsl(b) < fabsl(a)) return b;
  return fminl(a, b);
}

/// remquo's quotient as the kernel reports it: its sign and its 3 low bits (all the spec
/// promises); NaN where the remainder is NaN (the quotient is then unspecified).
inline L remquo_quotient(L a, L b) {
  int q = 0;
  if (std::isnan(remquol(a, b, &q))) return NAN;
  const int low = static_cast<int>(std::abs(static_cast<long>(q)) & 7);
  return q < 0 ? -low : low;
}

/// ilogb as the kernel reports it: -inf for FP_ILOGB0, NaN for FP_ILOGBNAN.
inline L ilogb_value(L a) {
  if (a == 0) return -INFINITY;
  if (std::isnan(a)) return NAN;
  if (std::isinf(a)) return INT_MAX;
  return ilogbl(a);
}

/// The sign lgamma_r reports: that of Gamma(a); 0 where the kernel reports 0 (poles, inf, NaN).
inline L gamma_sign(L a) {
  if (!std::isfinite(a) || (a <= 0 && a == floorl(a))) return 0;
  if (a > 0) return 1;
  return fmodl(ceill(-a), 2) == 1 ? -1 : 1;
}

inline L frexp_mantissa(L a) {
  int e = 0;
  return frexpl(a, &e);
}

inline L frexp_exponent(L a) {
  if (!std::isfinite(a)) return 0;
  int e = 0;
  frexpl(a, &e);
  return e;
}

inline L modf_part(L a, bool integral) {
  L whole = 0;
  const L fraction = modfl(a, &whole);
  return integral ? whole : fraction;
}

/// fract: fmin(x - floor(x), 0x1.fffffep-1f); 0 for infinities.
inline L fract_fraction(L a) {
  if (std::isnan(a)) return NAN;
  if (std::isinf(a)) return 0;
  return fminl(a - floorl(a), 0x1.fffffep-1L);
}

}  // namespace xgpu::conform::math::ref
