// Shared machinery of the math suites: a table entry per function (OpenCL C expression, ULP
// bound, host reference in long double, its hard cases), exponent-uniform input sampling with
// edge values, and the ULP error of a device result against the reference.
//
// Sample counts per function (docs/conform.md): quick (--quick, Oclgrind) 128 samples and at
// most 512 hard cases (every case of the small tables such as pow's); standard 16384
// samples and every hard case; full (--full) every one of the 2^32 float inputs of
// one-argument float functions (math_exhaustive.cpp).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "check.hpp"

namespace xgpu::conform::math {

constexpr std::size_t kQuickSamples = 128, kStandardSamples = 16384, kQuickHardCases = 512;

using Reference = long double (*)(long double, long double, long double);

/// The inputs that break careless implementations, per family of functions (math_hard_cases.cpp).
enum class Hard {
  none,
  log_near_one,  ///< 1 +- k ulp, and the same scaled to log1p's 0 +- k ulp
  trig,          ///< k*pi/2 rounded for k up to 2^20, neighbours, large values 1e5..1e30
  exp_e,         ///< near overflow and underflow (subnormal results) of e^x
  exp_2,         ///< ... of 2^x
  exp_10,        ///< ... of 10^x
  pow_table,     ///< C99 Annex F / OpenCL special cases: every pair of special x and y
  sqrt_edges,    ///< squares and their neighbours, subnormals, negatives
  divide_edges,  ///< pairs of zeros, infinities, extremes, subnormal quotients
};

/// Bound for functions whose accuracy the spec leaves undefined (lgamma): only the class of
/// the result (NaN, infinity and its sign) is checked.
constexpr double kAnyUlp = 1e30;

struct Function {
  const char* name;  ///< also the kernel's name: f_<name>
  const char* expr;  ///< OpenCL C in terms of a, b, c
  int arity;
  double ulp;     ///< the spec's bound; 0 means correctly rounded (error <= 0.5 ulp)
  double lo, hi;  ///< the domain where exponent-uniform and uniform samples are drawn
  Reference reference;
  Hard hard = Hard::none;
  /// Only inputs in [lo, hi] are defined (half_*): no edge values, bit patterns or results
  /// outside it are checked.
  bool domain_only = false;
};

/// The program with one kernel per function: r[i] = expr(a[i], b[i], c[i]).
std::string program_text(const std::vector<Function>& functions, const char* type,
                         const char* prelude);

/// Hard-case input triples (a, b, c) for type T (float or double).
template <class T>
std::vector<std::array<T, 3>> hard_cases(Hard kind);

/// ULP error of `got` against `reference` for type T (float or double): infinite when a
/// NaN, infinity or sign is wrong.
template <class T>
double ulp_error(T got, long double reference) {
  using L = std::numeric_limits<T>;
  if (std::isnan(reference)) return std::isnan(got) ? 0 : INFINITY;
  if (std::isnan(got)) return INFINITY;
  const long double magnitude = std::fabs(reference);
  // A reference past the largest finite value rounds to infinity: accept either.
  if (std::isinf(got))
    return (magnitude >= static_cast<long double>(L::max()) &&
            std::signbit(got) == std::signbit(reference))
               ? 0
               : INFINITY;
  if (std::isinf(reference)) return INFINITY;
  int exponent = magnitude == 0 ? L::min_exponent : std::ilogb(magnitude) + 1;
  if (exponent < L::min_exponent) exponent = L::min_exponent;
  const long double ulp = std::ldexp(1.0L, exponent - L::digits);
  return static_cast<double>(std::fabs(static_cast<long double>(got) - reference) / ulp);
}

/// A value drawn with a uniform exponent, then a uniform mantissa, inside [lo, hi]: every
/// binade of the domain gets the same share (uniform in [lo, hi] would put 99.9 % of the
/// samples of [1e-30, 1e30] above 1e27). Magnitudes start at the smallest normal value.
template <class T, class Random>
T exponent_uniform(double lo, double hi, Random& random) {
  using L = std::numeric_limits<T>;
  const double top = std::max(std::fabs(lo), std::fabs(hi));
  const double bottom =
      (lo <= 0 && hi >= 0) ? double(L::min()) : std::min(std::fabs(lo), std::fabs(hi));
  const int e0 = std::ilogb(std::max(bottom, double(L::min()))),
            e1 = std::ilogb(std::max(top, double(L::min())));
  std::uniform_int_distribution<int> exponent(e0, e1);
  std::uniform_real_distribution<double> mantissa(1.0, 2.0);
  for (int tries = 0; tries < 64; ++tries) {
    const bool negative = hi <= 0 || (lo < 0 && (random() & 1));
    const T value =
        static_cast<T>((negative ? -1 : 1) * std::ldexp(mantissa(random), exponent(random)));
    if (value >= lo && value <= hi) return value;
  }
  return static_cast<T>(lo + (hi - lo) / 2);  // a domain too thin to hit by chance
}

/// Edge values then `count` samples: half exponent-uniform in [lo, hi], a quarter uniform in
/// [lo, hi], a quarter random bit patterns (every class). With `domain_only`, only the
/// samples inside [lo, hi].
template <class T>
std::vector<T> sample(std::size_t count, double lo, double hi, std::uint64_t seed,
                      bool domain_only = false) {
  using L = std::numeric_limits<T>;
  std::vector<T> values;
  if (!domain_only)
    values = {T(0),          -T(0),           T(1),
              T(-1),         T(0.5),          T(2),
              T(3.14159265), L::denorm_min(), -L::denorm_min(),
              L::min(),      L::max(),        -L::max(),
              L::infinity(), -L::infinity(),  L::quiet_NaN(),
              T(1e5),        T(-37.5),        T(88.5),
              T(1e-20)};
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> uniform(lo, hi);
  for (std::size_t i = 0; i < count; ++i) {
    if (i % 4 == 1) {
      values.push_back(static_cast<T>(uniform(random)));
    } else if (i % 4 == 3 && !domain_only) {
      std::uint64_t bits = random();
      T value;
      std::memcpy(&value, &bits, sizeof(T));
      values.push_back(value);
    } else {
      values.push_back(exponent_uniform<T>(lo, hi, random));
    }
  }
  return values;
}

/// Flushes a subnormal to zero of the same sign, as a device without denormals does.
template <class T>
T flushed(T value) {
  return std::fpclassify(value) == FP_SUBNORMAL ? std::copysign(T(0), value) : value;
}

/// The error of one result, in ulp, as the check judges it: subnormal inputs and results
/// may be flushed to zero (the spec allows it without denormals); 0 outside the domain of a
/// domain-only function.
template <class T>
double judged_error(const Function& f, T r, T a, T b, T c) {
  const long double reference = f.reference(a, b, c);
  if (f.domain_only) {
    const T in[3] = {a, b, c};
    for (int k = 0; k < f.arity; ++k)
      if (!(in[k] >= f.lo && in[k] <= f.hi)) return 0;
    // A result out of T's range is undefined for half_*.
    if (!(std::fabs(reference) <= std::numeric_limits<T>::max())) return 0;
  }
  const double bound = f.ulp == 0 ? 0.5 : f.ulp;
  const double slack = sizeof(T) == 4 ? 1e-6 : 1e-3;  // the reference's own rounding
  double error = ulp_error<T>(r, reference);
  if (error > bound + slack) {
    const long double ftz = f.reference(flushed(a), flushed(b), flushed(c));
    error = std::min(error, ulp_error<T>(r, ftz));
    if (std::fpclassify(static_cast<T>(ftz)) == FP_SUBNORMAL && r == 0) error = 0;
  }
  return error > bound + slack ? error : 0;
}

/// "f: N of M inputs out of bound; worst: input a=..., expected ..., got ..., error ...".
template <class T>
Result describe_failure(const Function& f, std::size_t failures, std::size_t n, const T in[3],
                        T got, double worst_error) {
  char text[480];
  const char* args[3] = {"a", "b", "c"};
  std::string inputs;
  for (int k = 0; k < f.arity; ++k) {
    char one[80];
    std::snprintf(one, sizeof one, "%s%s=%.17g (%a)", k ? ", " : "", args[k], double(in[k]),
                  double(in[k]));
    inputs += one;
  }
  std::snprintf(text, sizeof text,
                "%s: %zu of %zu inputs out of bound; worst: input %s: expected %.17Lg, got "
                "%.17g (%a), error %.3g ulp > bound %g ulp",
                f.expr, failures, n, inputs.c_str(), f.reference(in[0], in[1], in[2]), double(got),
                double(got), worst_error, f.ulp == 0 ? 0.5 : f.ulp);
  return fail(text);
}

/// Runs function `f` of the program on its hard cases and samples and compares with the
/// reference.
template <class T>
Result check_function(Env& env, const Program& program, const Function& f) {
  const std::size_t count = env.size(kStandardSamples, kQuickSamples);
  std::vector<T> a = sample<T>(count, f.lo, f.hi, 11, f.domain_only),
                 b = sample<T>(count, f.lo, f.hi, 22, f.domain_only),
                 c = sample<T>(count, f.lo, f.hi, 33, f.domain_only);
  std::shuffle(b.begin(), b.end(), std::mt19937(5));  // pair edge values with other values
  std::vector<std::array<T, 3>> hard = hard_cases<T>(f.hard);
  const std::size_t stride = env.quick() ? hard.size() / kQuickHardCases + 1 : 1;
  for (std::size_t i = 0; i < hard.size(); i += stride) {
    a.push_back(hard[i][0]);
    b.push_back(hard[i][1]);
    c.push_back(hard[i][2]);
  }
  const std::size_t n = a.size();
  Buffer<T> da = env.context().alloc<T>(n), db = env.context().alloc<T>(n),
            dc = env.context().alloc<T>(n), dr = env.context().alloc<T>(n);
  env.queue().write(da, a);
  env.queue().write(db, b);
  env.queue().write(dc, c);
  env.queue().launch(program.kernel(std::string("f_") + f.name), Range{n}, da, db, dc, dr);
  const std::vector<T> r = env.queue().read(dr);
  std::size_t failures = 0, worst = 0;
  double worst_error = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double error = judged_error<T>(f, r[i], a[i], b[i], c[i]);
    if (error > 0) {
      ++failures;
      if (error > worst_error || failures == 1) worst_error = error, worst = i;
    }
  }
  if (failures == 0) return pass();
  const T in[3] = {a[worst], b[worst], c[worst]};
  return describe_failure<T>(f, failures, n, in, r[worst], worst_error);
}

/// What the host's long double gives: its declared digits and whether a run-time sum shows
/// bits beyond double's 53. Double-precision references need both.
struct LongDoubleProbe {
  int digits;
  bool carries_extra_bits;
};
/// The host's answer, measured once.
const LongDoubleProbe& host_long_double();
/// Why double-precision results cannot be judged on this host, or empty when they can.
std::string double_reference_missing(const LongDoubleProbe& probe);

/// `result` of math check `check` ("float_sinpi"), or a skip naming a known deviation of the
/// device's implementation when it failed where that deviation is known (math_reference.cpp).
Result with_known_deviation(const Env& env, const std::string& check, Result result);

/// A double-precision function checked against its long double reference, or skipped when
/// `probe` says long double is no wider than double.
Result check_double_function(Env& env, const Program& program, const Function& f,
                             const LongDoubleProbe& probe);

}  // namespace xgpu::conform::math

namespace xgpu::conform::math {
/// The single-precision table and its program's prelude (helpers for two-result built-ins).
const std::vector<Function>& float_function_table();
/// Whether --full goes over every input of `f`: one argument, 2^32 floats (two would be 2^64).
inline bool full_covers(const Function& f) { return f.arity == 1; }
extern const char* const kFloatPrelude;
/// --full: a one-argument float function over every bit pattern in Env::exhaustive()'s
/// range, in batches, compared on the host with several threads (math_exhaustive.cpp).
Result check_exhaustive(Env& env, const Function& f);
void register_math_float(Registry& registry);
void register_math_half(Registry& registry);

/// Float -> half rounding modes of vstore_half_rte/_rtz/_rtp/_rtn.
enum class HalfRounding { rte, rtz, rtp, rtn };
/// The host reference of half storage, exact integer arithmetic on the bits
/// (suite_math_half.cpp): a half's float bits, and a float's half bits in a rounding mode.
std::uint32_t half_to_float_bits(std::uint16_t h);
std::uint16_t float_to_half_bits(std::uint32_t f, HalfRounding mode);
/// The floats around every `step`-th finite half's rounding boundaries, both signs, and
/// the overflow and underflow boundaries.
std::vector<float> half_rounding_boundaries(std::size_t step);
}  // namespace xgpu::conform::math
