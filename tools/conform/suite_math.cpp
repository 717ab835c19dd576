// The math suite, single precision: each built-in against a long double host reference over
// its hard cases, edge values and exponent-uniform samples, within the OpenCL C ULP bounds
// (OpenCL C 3.0, "ULP values for single precision built-in math functions", full profile).
// Functions with two results (sincos, frexp, modf, fract, remquo, lgamma_r) are checked one
// result per entry, through helpers in the program's prelude. Left out: mad (any accuracy is
// allowed) and native_* (implementation-defined).
#include <cmath>
#include <limits>

#include "math_check.hpp"
#include "math_references.hpp"

namespace xgpu::conform::math {

std::string program_text(const std::vector<Function>& functions, const char* type,
                         const char* prelude) {
  std::string text = prelude;
  const std::string t = type;
  for (const Function& f : functions) {
    text += "kernel void f_" + std::string(f.name) + "(global const " + t + "* a_, global const " +
            t + "* b_, global const " + t + "* c_, global " + t + "* r_) {\n" +
            "  size_t i = get_global_id(0);\n  " + t + " a = a_[i], b = b_[i], c = c_[i];\n" +
            "  r_[i] = " + f.expr + ";\n}\n";
  }
  return text;
}

// int_arg: the integer argument of pown, rootn and ldexp from a float sample, as
// ref::saturated_int (convert_int_sat, with NaN as 0 spelled out: conversions are not
// this suite's subject). Two-result built-ins, one result at a time; integer results as float
// (exact below 2^24). Where the spec leaves a result unspecified (frexp's exponent of inf/NaN,
// remquo's quotient when the remainder is NaN, lgamma_r's sign at poles) the helper returns what
// the host reference returns there, so only specified results are compared.
const char* const kFloatPrelude = R"(
int int_arg(float b) { return isnan(b) ? 0 : convert_int_sat(b); }
float sincos_sin(float a) { float c; return sincos(a, &c); }
float sincos_cos(float a) { float c; sincos(a, &c); return c; }
float frexp_mantissa(float a) { int e; return frexp(a, &e); }
float frexp_exponent(float a) { int e; frexp(a, &e); return isfinite(a) ? (float)e : 0.0f; }
float modf_fraction(float a) { float i; return modf(a, &i); }
float modf_integral(float a) { float i; modf(a, &i); return i; }
float fract_fraction(float a) { float i; return fract(a, &i); }
float fract_floor(float a) { float i; fract(a, &i); return i; }
float remquo_remainder(float a, float b) { int q; return remquo(a, b, &q); }
float remquo_quotient(float a, float b) {
  int q; float r = remquo(a, b, &q);
  int low = (int)(abs(q) & 7u);
  return isnan(r) ? NAN : (float)(q < 0 ? -low : low);
}
float lgamma_r_sign(float a) {
  int s; lgamma_r(a, &s);
  return (!isfinite(a) || (a <= 0.0f && a == floor(a))) ? 0.0f : (float)s;
}
float ilogb_value(float a) {
  int e = ilogb(a);
  if (a == 0.0f) return e == FP_ILOGB0 ? -INFINITY : 0.5f;
  if (isnan(a)) return e == FP_ILOGBNAN ? NAN : 0.5f;
  return (float)e;
}
)";

namespace {

using L = long double;
constexpr double kBig = 1e4, kHuge = 1e30;

const std::vector<Function>& float_functions() {
  using namespace ref;
  static const std::vector<Function> functions = {
      {"divide", "a / b", 2, 2.5, -kBig, kBig, [](L a, L b, L) { return a / b; },
       Hard::divide_edges},
      {"sqrt", "sqrt(a)", 1, 3, 0, kBig, [](L a, L, L) { return sqrtl(a); }, Hard::sqrt_edges},
      {"rsqrt", "rsqrt(a)", 1, 2, 0, kBig, [](L a, L, L) { return 1 / sqrtl(a); },
       Hard::sqrt_edges},
      {"cbrt", "cbrt(a)", 1, 2, -kHuge, kHuge, [](L a, L, L) { return cbrtl(a); }},
      {"hypot", "hypot(a, b)", 2, 4, -kHuge, kHuge, [](L a, L b, L) { return hypotl(a, b); }},
      {"sin", "sin(a)", 1, 4, -100, 100, [](L a, L, L) { return sinl(a); }, Hard::trig},
      {"cos", "cos(a)", 1, 4, -100, 100, [](L a, L, L) { return cosl(a); }, Hard::trig},
      {"tan", "tan(a)", 1, 5, -100, 100, [](L a, L, L) { return tanl(a); }, Hard::trig},
      {"sincos_sin", "sincos_sin(a)", 1, 4, -100, 100, [](L a, L, L) { return sinl(a); },
       Hard::trig},
      {"sincos_cos", "sincos_cos(a)", 1, 4, -100, 100, [](L a, L, L) { return cosl(a); },
       Hard::trig},
      {"sinpi", "sinpi(a)", 1, 4, -kBig, kBig, [](L a, L, L) { return sinpi(a); }},
      {"cospi", "cospi(a)", 1, 4, -kBig, kBig, [](L a, L, L) { return cospi(a); }},
      {"tanpi", "tanpi(a)", 1, 6, -kBig, kBig, [](L a, L, L) { return tanpi(a); }},
      {"asin", "asin(a)", 1, 4, -1, 1, [](L a, L, L) { return asinl(a); }},
      {"acos", "acos(a)", 1, 4, -1, 1, [](L a, L, L) { return acosl(a); }},
      {"atan", "atan(a)", 1, 5, -kBig, kBig, [](L a, L, L) { return atanl(a); }},
      {"atan2", "atan2(a, b)", 2, 6, -kBig, kBig, [](L a, L b, L) { return atan2l(a, b); }},
      {"asinpi", "asinpi(a)", 1, 5, -1, 1, [](L a, L, L) { return asinl(a) / kPi; }},
      {"acospi", "acospi(a)", 1, 5, -1, 1, [](L a, L, L) { return acosl(a) / kPi; }},
      {"atanpi", "atanpi(a)", 1, 5, -kBig, kBig, [](L a, L, L) { return atanl(a) / kPi; }},
      {"atan2pi", "atan2pi(a, b)", 2, 6, -kBig, kBig,
       [](L a, L b, L) { return atan2l(a, b) / kPi; }},
      {"sinh", "sinh(a)", 1, 4, -90, 90, [](L a, L, L) { return sinhl(a); }},
      {"cosh", "cosh(a)", 1, 4, -90, 90, [](L a, L, L) { return coshl(a); }},
      {"tanh", "tanh(a)", 1, 5, -20, 20, [](L a, L, L) { return tanhl(a); }},
      {"asinh", "asinh(a)", 1, 4, -kHuge, kHuge, [](L a, L, L) { return asinhl(a); }},
      {"acosh", "acosh(a)", 1, 4, 1, kHuge, [](L a, L, L) { return acoshl(a); }},
      {"atanh", "atanh(a)", 1, 5, -1, 1, [](L a, L, L) { return atanhl(a); }},
      {"exp", "exp(a)", 1, 3, -110, 90, [](L a, L, L) { return expl(a); }, Hard::exp_e},
      {"exp2", "exp2(a)", 1, 3, -155, 130, [](L a, L, L) { return exp2l(a); }, Hard::exp_2},
      {"exp10", "exp10(a)", 1, 3, -46, 39, [](L a, L, L) { return powl(10, a); }, Hard::exp_10},
      {"expm1", "expm1(a)", 1, 3, -110, 90, [](L a, L, L) { return expm1l(a); }, Hard::exp_e},
      {"log", "log(a)", 1, 3, 0, kHuge, [](L a, L, L) { return logl(a); }, Hard::log_near_one},
      {"log2", "log2(a)", 1, 3, 0, kHuge, [](L a, L, L) { return log2l(a); }, Hard::log_near_one},
      {"log10", "log10(a)", 1, 3, 0, kHuge, [](L a, L, L) { return log10l(a); },
       Hard::log_near_one},
      {"log1p", "log1p(a)", 1, 2, -1, kHuge, [](L a, L, L) { return log1pl(a); },
       Hard::log_near_one},
      {"logb", "logb(a)", 1, 0, -kHuge, kHuge, [](L a, L, L) { return logbl(a); }},
      {"ilogb", "ilogb_value(a)", 1, 0, -kHuge, kHuge, [](L a, L, L) { return ilogb_value(a); }},
      {"pow", "pow(a, b)", 2, 16, 0, 20, [](L a, L b, L) { return powl(a, b); }, Hard::pow_table},
      {"powr", "powr(a, b)", 2, 16, 0, 20, [](L a, L b, L) { return powr(a, b); }, Hard::pow_table},
      {"pown", "pown(a, int_arg(b))", 2, 16, -20, 20, [](L a, L b, L) { return pown(a, b); },
       Hard::pow_table},
      {"rootn", "rootn(a, int_arg(b))", 2, 16, -20, 20, [](L a, L b, L) { return rootn(a, b); },
       Hard::pow_table},
      {"erf", "erf(a)", 1, 16, -6, 6, [](L a, L, L) { return erfl(a); }},
      {"erfc", "erfc(a)", 1, 16, -12, 12, [](L a, L, L) { return erfcl(a); }},
      {"tgamma", "tgamma(a)", 1, 16, -40, 36, [](L a, L, L) { return tgammal(a); }},
      // The spec gives lgamma no bound: only NaN, infinities and their signs are checked.
      {"lgamma", "lgamma(a)", 1, kAnyUlp, -40, kHuge, [](L a, L, L) { return lgammal(a); }},
      {"lgamma_r_sign", "lgamma_r_sign(a)", 1, 0, -40, 40, [](L a, L, L) { return gamma_sign(a); }},
      {"fma", "fma(a, b, c)", 3, 0, -kBig, kBig, [](L a, L b, L c) { return fmal(a, b, c); }},
      {"fabs", "fabs(a)", 1, 0, -kBig, kBig, [](L a, L, L) { return fabsl(a); }},
      {"floor", "floor(a)", 1, 0, -kBig, kBig, [](L a, L, L) { return floorl(a); }},
      {"ceil", "ceil(a)", 1, 0, -kBig, kBig, [](L a, L, L) { return ceill(a); }},
      {"trunc", "trunc(a)", 1, 0, -kBig, kBig, [](L a, L, L) { return truncl(a); }},
      {"round", "round(a)", 1, 0, -kBig, kBig, [](L a, L, L) { return roundl(a); }},
      {"rint", "rint(a)", 1, 0, -kBig, kBig, [](L a, L, L) { return rintl(a); }},
      {"copysign", "copysign(a, b)", 2, 0, -kBig, kBig,
       [](L a, L b, L) { return copysignl(a, b); }},
      {"fdim", "fdim(a, b)", 2, 0, -kBig, kBig, [](L a, L b, L) { return fdiml(a, b); }},
      {"fmax", "fmax(a, b)", 2, 0, -kBig, kBig, [](L a, L b, L) { return fmaxl(a, b); }},
      {"fmin", "fmin(a, b)", 2, 0, -kBig, kBig, [](L a, L b, L) { return fminl(a, b); }},
      {"maxmag", "maxmag(a, b)", 2, 0, -kBig, kBig, [](L a, L b, L) { return maxmag(a, b); }},
      {"minmag", "minmag(a, b)", 2, 0, -kBig, kBig, [](L a, L b, L) { return minmag(a, b); }},
      {"fmod", "fmod(a, b)", 2, 0, -kBig, kBig, [](L a, L b, L) { return fmodl(a, b); }},
      {"remainder", "remainder(a, b)", 2, 0, -kBig, kBig,
       [](L a, L b, L) { return remainderl(a, b); }},
      {"remquo_remainder", "remquo_remainder(a, b)", 2, 0, -kBig, kBig,
       [](L a, L b, L) { return remainderl(a, b); }},
      {"remquo_quotient", "remquo_quotient(a, b)", 2, 0, -kBig, kBig,
       [](L a, L b, L) { return remquo_quotient(a, b); }},
      {"ldexp", "ldexp(a, int_arg(b))", 2, 0, -300, 300,
       [](L a, L b, L) { return ldexpl(a, saturated_int(b)); }},
      {"nextafter", "nextafter(a, b)", 2, 0, -kBig, kBig,
       [](L a, L b, L) { return static_cast<L>(std::nextafter(float(a), float(b))); }},
      {"frexp_mantissa", "frexp_mantissa(a)", 1, 0, -kHuge, kHuge,
       [](L a, L, L) { return frexp_mantissa(a); }},
      {"frexp_exponent", "frexp_exponent(a)", 1, 0, -kHuge, kHuge,
       [](L a, L, L) { return frexp_exponent(a); }},
      {"modf_fraction", "modf_fraction(a)", 1, 0, -kBig, kBig,
       [](L a, L, L) { return modf_part(a, false); }},
      {"modf_integral", "modf_integral(a)", 1, 0, -kBig, kBig,
       [](L a, L, L) { return modf_part(a, true); }},
      {"fract_fraction", "fract_fraction(a)", 1, 0, -kBig, kBig,
       [](L a, L, L) { return fract_fraction(a); }},
      {"fract_floor", "fract_floor(a)", 1, 0, -kBig, kBig, [](L a, L, L) { return floorl(a); }},
      // half_*: 8192 ulp, defined only on their domain.
      {"half_sin", "half_sin(a)", 1, 8192, -65536, 65536, [](L a, L, L) { return sinl(a); },
       Hard::none, true},
      {"half_cos", "half_cos(a)", 1, 8192, -65536, 65536, [](L a, L, L) { return cosl(a); },
       Hard::none, true},
      {"half_tan", "half_tan(a)", 1, 8192, -65536, 65536, [](L a, L, L) { return tanl(a); },
       Hard::none, true},
      {"half_exp", "half_exp(a)", 1, 8192, -87, 88, [](L a, L, L) { return expl(a); }, Hard::none,
       true},
      {"half_exp2", "half_exp2(a)", 1, 8192, -126, 127, [](L a, L, L) { return exp2l(a); },
       Hard::none, true},
      {"half_exp10", "half_exp10(a)", 1, 8192, -37, 38, [](L a, L, L) { return powl(10, a); },
       Hard::none, true},
      {"half_log", "half_log(a)", 1, 8192, 1e-37, 1e37, [](L a, L, L) { return logl(a); },
       Hard::none, true},
      {"half_log2", "half_log2(a)", 1, 8192, 1e-37, 1e37, [](L a, L, L) { return log2l(a); },
       Hard::none, true},
      {"half_log10", "half_log10(a)", 1, 8192, 1e-37, 1e37, [](L a, L, L) { return log10l(a); },
       Hard::none, true},
      {"half_sqrt", "half_sqrt(a)", 1, 8192, 1e-37, 1e37, [](L a, L, L) { return sqrtl(a); },
       Hard::none, true},
      {"half_rsqrt", "half_rsqrt(a)", 1, 8192, 1e-37, 1e37, [](L a, L, L) { return 1 / sqrtl(a); },
       Hard::none, true},
      {"half_recip", "half_recip(a)", 1, 8192, 1e-37, 1e37, [](L a, L, L) { return 1 / a; },
       Hard::none, true},
      {"half_divide", "half_divide(a, b)", 2, 8192, 1e-30, 1e30, [](L a, L b, L) { return a / b; },
       Hard::none, true},
      {"half_powr", "half_powr(a, b)", 2, 8192, 1e-3, 64, [](L a, L b, L) { return powr(a, b); },
       Hard::none, true},
  };
  return functions;
}

}  // namespace

const std::vector<Function>& float_function_table() { return float_functions(); }

void register_math_float(Registry& registry) {
  for (const Function& f : float_functions()) {
    registry.add("math", std::string("float_") + f.name, "", [&f](Env& env) {
      const Program program = env.program("conform_math_float.cl",
                                          program_text(float_functions(), "float", kFloatPrelude));
      if (env.exhaustive().on && full_covers(f))
        return with_known_deviation(env, "float_" + std::string(f.name), check_exhaustive(env, f));
      return with_known_deviation(env, "float_" + std::string(f.name),
                                  check_function<float>(env, program, f));
    });
  }
}

}  // namespace xgpu::conform::math
