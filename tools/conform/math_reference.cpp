// Whether the host can judge double precision: the references are computed in long double,
// which is wider than double on x86 (64 digits) and where it is a quad or double-double type,
// but is plain double on aarch64-Apple and MSVC. There a double "reference" would carry the
// host's own rounding errors, as large as the bound being checked, so the double-precision
// checks are skipped with the reason. Single precision is unaffected: a double reference
// (53 digits) is far more precise than the 24 digits judged.
#include <limits>
#include <string>

#include "math_check.hpp"
#include "profile_backing.hpp"

namespace xgpu::conform::math {

namespace {

LongDoubleProbe measure() {
  // volatile: the compiler must not fold the sum at double precision or in wider registers.
  volatile long double one = 1, tiny = std::ldexp(1.0L, -60);
  const long double sum = one + tiny;
  return {std::numeric_limits<long double>::digits, sum != one && sum - one == tiny};
}

}  // namespace

const LongDoubleProbe& host_long_double() {
  static const LongDoubleProbe probe = measure();
  return probe;
}

std::string double_reference_missing(const LongDoubleProbe& probe) {
  if (probe.digits >= 64 && probe.carries_extra_bits) return {};
  return "the host's long double is no wider than double (" + std::to_string(probe.digits) +
         " digits" + (probe.carries_extra_bits ? "" : ", no bit past double's seen at run time") +
         "): no reference for double precision";
}

Result check_double_function(Env& env, const Program& program, const Function& f,
                             const LongDoubleProbe& probe) {
  const std::string missing = double_reference_missing(probe);
  if (!missing.empty()) return skip(missing);
  return check_function<double>(env, program, f);
}

namespace {

// Deviations of an implementation seen by the math checks, reported as skips that name them
// (and only while seen: a passing check passes). allowed_skips/<implementation>.txt lists them.
struct KnownDeviation {
  const char* implementation;
  const char* check;
  const char* what;
};
constexpr KnownDeviation kKnownDeviations[] = {
    {"oclgrind", "float_sinpi", "computes sin(pi * x) in float (no exact reduction)"},
    {"oclgrind", "float_cospi", "computes cos(pi * x) in float (no exact reduction)"},
    {"oclgrind", "float_tanpi", "computes tan(pi * x) in float (no exact reduction)"},
    {"oclgrind", "float_lgamma_r_sign", "reports a wrong sign for some large negative x"},
    {"oclgrind", "float_fract_fraction", "fract(+-inf) returns 0x1.fffffep-1, not +-0"},
    {"pocl", "float_tgamma", "tgamma is 16.4 ulp off near -35 (bound 16)"},
    {"pocl", "double_exp", "double exp overflows to inf about 100 ulp below DBL_MAX"},
};

}  // namespace

Result with_known_deviation(const Env& env, const std::string& check, Result result) {
  if (result.outcome != Outcome::fail) return result;
  for (const KnownDeviation& known : kKnownDeviations) {
    if (computing_implementation(env.info()) == known.implementation && check == known.check)
      return skip(std::string("known ") + known.implementation + " deviation" +
                  (env.info().implementation == known.implementation
                       ? ""
                       : " (of the profile's backing device)") +
                  ": " + known.what + "; " + result.detail);
  }
  return result;
}

}  // namespace xgpu::conform::math
