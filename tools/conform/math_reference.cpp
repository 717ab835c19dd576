// Whether the host can judge double precision: the references are computed in long double,
// which is wider than double on x86 (64 digits) and where it is a quad or double-double type,
// but is plain double on aarch64-Apple and MSVC. There a double "reference" would carry the
// host's own rounding errors, as large as the bound being checked, so the double-precision
// checks are skipped with the reason. Single precision is unaffected: a double reference
// (53 digits) is far more precise than the 24 digits judged.
#include <limits>
#include <string>

#include "known_deviations.hpp"
#include "math_check.hpp"

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

// Deviations of a driver's math seen by the math checks (the table of known drivers' wrong
// results), reported as skips that name them, and only while seen: a passing check passes.
Result with_known_deviation(const Env& env, const std::string& check, Result result) {
  if (result.outcome != Outcome::fail) return result;
  const std::string known = known_deviation(env, "math/" + check, result.detail);
  return known.empty() ? result : skip(known);
}

}  // namespace xgpu::conform::math
