// Shared machinery of the math suites: a table entry per function (OpenCL C expression, ULP
// bound, host reference in long double), input sampling with edge values, and the ULP error
// of a device result against the reference.
#pragma once

#include <algorithm>
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

using Reference = long double (*)(long double, long double, long double);

struct Function {
  const char* name;  ///< also the kernel's name: f_<name>
  const char* expr;  ///< OpenCL C in terms of a, b, c
  int arity;
  double ulp;     ///< the spec's bound; 0 means correctly rounded (error <= 0.5 ulp)
  double lo, hi;  ///< where uniform samples are drawn; random bit patterns cover the rest
  Reference reference;
};

/// The program with one kernel per function: r[i] = expr(a[i], b[i], c[i]).
std::string program_text(const std::vector<Function>& functions, const char* type,
                         const char* prelude);

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

/// Edge values then `count` samples: half uniform in [lo, hi], half random bit patterns.
template <class T>
std::vector<T> sample(std::size_t count, double lo, double hi, std::uint64_t seed) {
  using L = std::numeric_limits<T>;
  std::vector<T> values = {T(0),          -T(0),           T(1),
                           T(-1),         T(0.5),          T(2),
                           T(3.14159265), L::denorm_min(), -L::denorm_min(),
                           L::min(),      L::max(),        -L::max(),
                           L::infinity(), -L::infinity(),  L::quiet_NaN(),
                           T(1e5),        T(-37.5),        T(88.5),
                           T(1e-20)};
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> uniform(lo, hi);
  for (std::size_t i = 0; i < count; ++i) {
    if (i % 2 == 0) {
      values.push_back(static_cast<T>(uniform(random)));
    } else {
      std::uint64_t bits = random();
      T value;
      std::memcpy(&value, &bits, sizeof(T));
      values.push_back(value);
    }
  }
  return values;
}

/// Flushes a subnormal to zero of the same sign, as a device without denormals does.
template <class T>
T flushed(T value) {
  return std::fpclassify(value) == FP_SUBNORMAL ? std::copysign(T(0), value) : value;
}

/// Runs function `f` of the program on samples and compares with the reference. Subnormal
/// inputs and results may be flushed to zero (the spec allows it without denormals).
template <class T>
Result check_function(Env& env, const Program& program, const Function& f) {
  const std::size_t count = env.size(4096, 128);
  std::vector<T> a = sample<T>(count, f.lo, f.hi, 11), b = sample<T>(count, f.lo, f.hi, 22),
                 c = sample<T>(count, f.lo, f.hi, 33);
  std::shuffle(b.begin(), b.end(), std::mt19937(5));  // pair edge values with other values
  const std::size_t n = a.size();
  Buffer<T> da = env.context().alloc<T>(n), db = env.context().alloc<T>(n),
            dc = env.context().alloc<T>(n), dr = env.context().alloc<T>(n);
  env.queue().write(da, a);
  env.queue().write(db, b);
  env.queue().write(dc, c);
  env.queue().launch(program.kernel(std::string("f_") + f.name), Range{n}, da, db, dc, dr);
  const std::vector<T> r = env.queue().read(dr);
  const double bound = f.ulp == 0 ? 0.5 : f.ulp;
  const double slack = sizeof(T) == 4 ? 1e-6 : 1e-3;  // the reference's own rounding
  std::size_t failures = 0, worst = 0;
  double worst_error = 0;
  for (std::size_t i = 0; i < n; ++i) {
    double error = ulp_error<T>(r[i], f.reference(a[i], b[i], c[i]));
    if (error > bound + slack) {
      const long double ftz = f.reference(flushed(a[i]), flushed(b[i]), flushed(c[i]));
      error = std::min(error, ulp_error<T>(r[i], ftz));
      if (std::fpclassify(static_cast<T>(ftz)) == FP_SUBNORMAL && r[i] == 0) error = 0;
    }
    if (error > bound + slack) {
      ++failures;
      if (error > worst_error || failures == 1) worst_error = error, worst = i;
    }
  }
  if (failures == 0) return pass();
  char text[400];
  const char* args[3] = {"a", "b", "c"};
  std::string inputs;
  const T in[3] = {a[worst], b[worst], c[worst]};
  for (int k = 0; k < f.arity; ++k) {
    char one[80];
    std::snprintf(one, sizeof one, "%s%s=%.17g (%a)", k ? ", " : "", args[k], double(in[k]),
                  double(in[k]));
    inputs += one;
  }
  std::snprintf(text, sizeof text,
                "%s: %zu of %zu inputs out of bound; worst: input %s: expected %.17Lg, got "
                "%.17g (%a), error %.3g ulp > bound %g ulp",
                f.expr, failures, n, inputs.c_str(), f.reference(in[0], in[1], in[2]),
                double(r[worst]), double(r[worst]), worst_error, bound);
  return fail(text);
}

}  // namespace xgpu::conform::math

namespace xgpu::conform::math {
void register_math_float(Registry& registry);
}  // namespace xgpu::conform::math
