// The math suite, single precision: each function against a long double host reference over
// sampled inputs with edge values, within the OpenCL C ULP bounds (OpenCL C 1.2, 7.4).
#include <cmath>

#include "math_check.hpp"

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

namespace {

using L = long double;
constexpr double kBig = 1e4;

const std::vector<Function>& float_functions() {
  static const std::vector<Function> functions = {
      {"divide", "a / b", 2, 2.5, -kBig, kBig, [](L a, L b, L) { return a / b; }},
      {"sqrt", "sqrt(a)", 1, 3, 0, kBig, [](L a, L, L) { return sqrtl(a); }},
      {"rsqrt", "rsqrt(a)", 1, 2, 0, kBig, [](L a, L, L) { return 1 / sqrtl(a); }},
      {"sin", "sin(a)", 1, 4, -100, 100, [](L a, L, L) { return sinl(a); }},
      {"cos", "cos(a)", 1, 4, -100, 100, [](L a, L, L) { return cosl(a); }},
      {"tan", "tan(a)", 1, 5, -100, 100, [](L a, L, L) { return tanl(a); }},
      {"exp", "exp(a)", 1, 3, -80, 80, [](L a, L, L) { return expl(a); }},
      {"exp2", "exp2(a)", 1, 3, -120, 120, [](L a, L, L) { return exp2l(a); }},
      {"exp10", "exp10(a)", 1, 3, -35, 35, [](L a, L, L) { return powl(10, a); }},
      {"log", "log(a)", 1, 3, 0, kBig, [](L a, L, L) { return logl(a); }},
      {"log2", "log2(a)", 1, 3, 0, kBig, [](L a, L, L) { return log2l(a); }},
      {"log10", "log10(a)", 1, 3, 0, kBig, [](L a, L, L) { return log10l(a); }},
      {"pow", "pow(a, b)", 2, 16, 0, 20, [](L a, L b, L) { return powl(a, b); }},
      {"asin", "asin(a)", 1, 4, -1, 1, [](L a, L, L) { return asinl(a); }},
      {"acos", "acos(a)", 1, 4, -1, 1, [](L a, L, L) { return acosl(a); }},
      {"atan", "atan(a)", 1, 5, -kBig, kBig, [](L a, L, L) { return atanl(a); }},
      {"atan2", "atan2(a, b)", 2, 6, -kBig, kBig, [](L a, L b, L) { return atan2l(a, b); }},
      {"fma", "fma(a, b, c)", 3, 0, -kBig, kBig, [](L a, L b, L c) { return fmal(a, b, c); }},
      {"fabs", "fabs(a)", 1, 0, -kBig, kBig, [](L a, L, L) { return fabsl(a); }},
      {"floor", "floor(a)", 1, 0, -kBig, kBig, [](L a, L, L) { return floorl(a); }},
  };
  return functions;
}

}  // namespace

void register_math_float(Registry& registry) {
  for (const Function& f : float_functions()) {
    registry.add("math", std::string("float_") + f.name, "", [&f](Env& env) {
      const Program program =
          env.program("conform_math_float.cl", program_text(float_functions(), "float", ""));
      return check_function<float>(env, program, f);
    });
  }
}

}  // namespace xgpu::conform::math
