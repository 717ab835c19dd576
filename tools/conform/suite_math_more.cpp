// The math suite beyond single precision: double precision where the device has it,
// (skipped where the host's long double is no wider than double: math_reference.cpp),
// half-precision storage (suite_math_half.cpp), half arithmetic with cl_khr_fp16,
// and a smoke test of the integer built-ins.
#include <cmath>
#include <cstdint>
#include <random>

#include "math_check.hpp"

namespace xgpu::conform {
namespace {

using math::Function;
using L = long double;

const std::vector<Function>& double_functions() {
  static const std::vector<Function> functions = {
      {"divide", "a / b", 2, 0, -1e4, 1e4, [](L a, L b, L) { return a / b; },
       math::Hard::divide_edges},
      {"sqrt", "sqrt(a)", 1, 0, 0, 1e4, [](L a, L, L) { return sqrtl(a); }, math::Hard::sqrt_edges},
      {"sin", "sin(a)", 1, 4, -100, 100, [](L a, L, L) { return sinl(a); }, math::Hard::trig},
      {"cos", "cos(a)", 1, 4, -100, 100, [](L a, L, L) { return cosl(a); }, math::Hard::trig},
      {"exp", "exp(a)", 1, 3, -750, 710, [](L a, L, L) { return expl(a); }, math::Hard::exp_e},
      {"log", "log(a)", 1, 3, 0, 1e4, [](L a, L, L) { return logl(a); }, math::Hard::log_near_one},
      {"pow", "pow(a, b)", 2, 16, 0, 20, [](L a, L b, L) { return powl(a, b); },
       math::Hard::pow_table},
      {"fma", "fma(a, b, c)", 3, 0, -1e4, 1e4, [](L a, L b, L c) { return fmal(a, b, c); }},
  };
  return functions;
}

// Small integers: x * y + x is exact in half, so the answer is known without rounding.
Result half_arithmetic(Env& env) {
  const char* const source = R"(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void madd(global float* out) {
  size_t i = get_global_id(0);
  half x = (half)(float)(i % 64), y = (half)(float)((i / 64) % 32);
  half r = x * y + x;
  out[i] = (float)r;
}
)";
  const std::size_t n = env.size(2048, 256);
  Buffer<float> out = env.context().alloc<float>(n);
  env.queue().launch(env.program("conform_half_math.cl", source).kernel("madd"), Range{n}, out);
  const std::vector<float> got = env.queue().read(out);
  for (std::size_t i = 0; i < n; ++i) {
    const float x = static_cast<float>(i % 64), y = static_cast<float>((i / 64) % 32);
    if (got[i] != x * y + x)
      return fail_expected("half " + std::to_string(x) + " * " + std::to_string(y) + " + x",
                           x * y + x, got[i]);
  }
  return pass();
}

Result integer_ops(Env& env) {
  const char* const source = R"(
kernel void ops(global const uint* a, global const uint* b, global uint* r) {
  size_t i = get_global_id(0);
  uint x = a[i], y = b[i];
  r[6 * i + 0] = mul_hi(x, y);
  r[6 * i + 1] = add_sat(x, y);
  r[6 * i + 2] = rotate(x, y % 32);
  r[6 * i + 3] = clz(x);
  r[6 * i + 4] = abs_diff(x, y);
  r[6 * i + 5] = (x / (y | 1)) ^ (x % (y | 1));
}
)";
  const std::size_t n = env.size(1024, 64);
  std::mt19937 random(77);
  std::vector<std::uint32_t> a(n), b(n);
  for (std::size_t i = 0; i < n; ++i) a[i] = random() >> (i % 32), b[i] = random() >> (i % 7);
  a[0] = 0;
  Buffer<std::uint32_t> da = env.context().alloc<std::uint32_t>(n),
                        db = env.context().alloc<std::uint32_t>(n),
                        dr = env.context().alloc<std::uint32_t>(6 * n);
  env.queue().write(da, a);
  env.queue().write(db, b);
  env.queue().launch(env.program("conform_integer.cl", source).kernel("ops"), Range{n}, da, db, dr);
  const std::vector<std::uint32_t> r = env.queue().read(dr);
  const char* names[6] = {"mul_hi", "add_sat", "rotate", "clz", "abs_diff", "div/rem"};
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t x = a[i], y = b[i], s = y % 32, d = y | 1;
    std::uint32_t leading_zeros = 0;
    for (std::uint32_t bit = 1u << 31; bit && !(x & bit); bit >>= 1) ++leading_zeros;
    const std::uint32_t expected[6] = {static_cast<std::uint32_t>((std::uint64_t{x} * y) >> 32),
                                       x > 0xffffffffu - y ? 0xffffffffu : x + y,
                                       s ? (x << s) | (x >> (32 - s)) : x,
                                       leading_zeros,
                                       x > y ? x - y : y - x,
                                       (x / d) ^ (x % d)};
    for (int k = 0; k < 6; ++k) {
      if (r[6 * i + k] != expected[k])
        return fail_expected(
            std::string(names[k]) + "(" + std::to_string(x) + ", " + std::to_string(y) + ")",
            expected[k], r[6 * i + k]);
    }
  }
  return pass();
}

}  // namespace

void register_math(Registry& registry) {
  math::register_math_float(registry);
  for (const Function& f : double_functions()) {
    registry.add("math", std::string("double_") + f.name, "fp64", [&f](Env& env) {
      const Program program =
          env.program("conform_math_double.cl",
                      math::program_text(double_functions(), "double",
                                         "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"));
      return math::with_known_deviation(
          env, std::string("double_") + f.name,
          math::check_double_function(env, program, f, math::host_long_double()));
    });
  }
  math::register_math_half(registry);
  registry.add("math", "half_arithmetic", "fp16", half_arithmetic);
  registry.add("math", "integer_builtins", "", integer_ops);
}

}  // namespace xgpu::conform
