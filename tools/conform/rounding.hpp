// Host references for the conversions suite: rounding a float or double to an integer, and
// an integer or a double to a floating type, in each of OpenCL's four rounding modes. Written
// from the definitions (bracket the exact value between two neighbours, pick by mode; ties to
// even), using the host's own conversion only as a first guess that is then checked exactly.
#pragma once

#include <cmath>
#include <cstring>
#include <limits>

#include "integer_reference.hpp"

namespace xgpu::conform {

enum class Mode { rte, rtz, rtp, rtn };
inline constexpr Mode kModes[] = {Mode::rte, Mode::rtz, Mode::rtp, Mode::rtn};
inline constexpr const char* kModeSuffix[] = {"_rte", "_rtz", "_rtp", "_rtn"};

// x (finite) rounded to an integral double in `mode`. x - floor(x) is exact for any double.
inline double round_integral(double x, Mode mode) {
  const double down = std::floor(x), up = std::ceil(x);
  if (down == up) return x;
  switch (mode) {
    case Mode::rtz:
      return x < 0 ? up : down;
    case Mode::rtp:
      return up;
    case Mode::rtn:
      return down;
    default:
      break;
  }
  const double fraction = x - down;
  if (fraction != 0.5) return fraction < 0.5 ? down : up;
  return std::fmod(down, 2.0) == 0 ? down : up;  // a tie: the even neighbour
}

// An integral double (or an infinity) clamped into t's range, as an exact integer.
inline Wide saturate_integral(double r, const IntType& t) {
  if (r <= -0x1p100) return t.min();
  if (r >= 0x1p100) return t.max();
  return t.saturate(static_cast<Wide>(r));
}

// Whether an integral double (or infinity) lies in t's range.
inline bool in_range(double r, const IntType& t) {
  return r > -0x1p100 && r < 0x1p100 && static_cast<Wide>(r) >= t.min() &&
         static_cast<Wide>(r) <= t.max();
}

// Whether a float or double has an even last significand bit (infinity counts as even: it
// stands for 2^(emax+1), where round-to-nearest overflows).
template <class F>
bool even_significand(F f) {
  if (std::isinf(f)) return true;
  std::conditional_t<sizeof(F) == 4, std::uint32_t, std::uint64_t> bits;
  std::memcpy(&bits, &f, sizeof f);
  return (bits & 1) == 0;
}

// Picks between the neighbours lower < exact < upper: `below` and `above` are exact - lower
// and upper - exact, compared exactly by the caller's type.
template <class F, class D>
F pick(F lower, F upper, D below, D above, bool positive, Mode mode) {
  switch (mode) {
    case Mode::rtz:
      return positive ? lower : upper;
    case Mode::rtp:
      return upper;
    case Mode::rtn:
      return lower;
    default:
      break;
  }
  if (below != above) return below < above ? lower : upper;
  return even_significand(lower) ? lower : upper;
}

// The integer v in floating type F, rounded in `mode`.
template <class F>
F integer_to_floating(Wide v, Mode mode) {
  const F guess = static_cast<F>(v);
  const Wide back = static_cast<Wide>(guess);  // exact: |guess| <= 2^64, integral
  if (back == v) return guess;
  const F lower = back < v ? guess : std::nextafter(guess, -std::numeric_limits<F>::infinity());
  const F upper = back > v ? guess : std::nextafter(guess, std::numeric_limits<F>::infinity());
  return pick(lower, upper, v - static_cast<Wide>(lower), static_cast<Wide>(upper) - v, v > 0,
              mode);
}

// The double d in float, rounded in `mode`. Differences of d and a float neighbour are exact
// in double (same sign, within a factor of two); an infinite neighbour counts as 2^128.
inline float double_to_float(double d, Mode mode) {
  if (std::isnan(d)) return NAN;
  const float guess = static_cast<float>(d);
  if (static_cast<double>(guess) == d) return guess;
  const float lower = static_cast<double>(guess) < d ? guess : std::nextafter(guess, -INFINITY);
  const float upper = static_cast<double>(guess) > d ? guess : std::nextafter(guess, INFINITY);
  auto finite = [](float f) { return std::isinf(f) ? std::copysign(0x1p128, f) : double{f}; };
  return pick(lower, upper, d - finite(lower), finite(upper) - d, d > 0, mode);
}

}  // namespace xgpu::conform
