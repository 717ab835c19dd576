// The math suite beyond single precision: double precision where the device has it,
// half-precision storage (vload_half/vstore_half) always, half arithmetic with cl_khr_fp16,
// and a smoke test of the integer built-ins.
#include <cmath>
#include <cstdint>
#include <random>
#include <xgpu/half.hpp>

#include "math_check.hpp"

namespace xgpu::conform {
namespace {

using math::Function;
using L = long double;

const std::vector<Function>& double_functions() {
  static const std::vector<Function> functions = {
      {"divide", "a / b", 2, 0, -1e4, 1e4, [](L a, L b, L) { return a / b; }},
      {"sqrt", "sqrt(a)", 1, 0, 0, 1e4, [](L a, L, L) { return sqrtl(a); }},
      {"sin", "sin(a)", 1, 4, -100, 100, [](L a, L, L) { return sinl(a); }},
      {"cos", "cos(a)", 1, 4, -100, 100, [](L a, L, L) { return cosl(a); }},
      {"exp", "exp(a)", 1, 3, -700, 700, [](L a, L, L) { return expl(a); }},
      {"log", "log(a)", 1, 3, 0, 1e4, [](L a, L, L) { return logl(a); }},
      {"pow", "pow(a, b)", 2, 16, 0, 20, [](L a, L b, L) { return powl(a, b); }},
      {"fma", "fma(a, b, c)", 3, 0, -1e4, 1e4, [](L a, L b, L c) { return fmal(a, b, c); }},
  };
  return functions;
}

const char* const kHalf = R"(
kernel void load(global const ushort* h, global float* f) {
  size_t i = get_global_id(0);
  f[i] = vload_half(i, (global const half*)h);
}
kernel void store(global const float* f, global ushort* h) {
  size_t i = get_global_id(0);
  vstore_half(f[i], i, (global half*)h);
}
)";

// Every half value read as float and stored back must give the same value (and bits).
Result half_storage(Env& env) {
  const std::size_t step = env.quick() ? 97 : 7;
  std::vector<std::uint16_t> bits;
  for (std::uint32_t h = 0; h < 65536; h += step) bits.push_back(static_cast<std::uint16_t>(h));
  bits.insert(bits.end(), {0x0000, 0x8000, 0x0001, 0x03ff, 0x7bff, 0x7c00, 0xfc00, 0x3c00});
  const std::size_t n = bits.size();
  Program program = env.program("conform_half.cl", kHalf);
  Buffer<std::uint16_t> h = env.context().alloc<std::uint16_t>(n),
                        back = env.context().alloc<std::uint16_t>(n);
  Buffer<float> f = env.context().alloc<float>(n);
  env.queue().write(h, bits);
  env.queue().launch(program.kernel("load"), Range{n}, h, f);
  env.queue().launch(program.kernel("store"), Range{n}, f, back);
  const std::vector<float> loaded = env.queue().read(f);
  const std::vector<std::uint16_t> stored = env.queue().read(back);
  for (std::size_t i = 0; i < n; ++i) {
    const float expected = to_float(half{bits[i]});
    const bool nan = std::isnan(expected);
    if (nan ? !std::isnan(loaded[i])
            : loaded[i] != expected || std::signbit(loaded[i]) != std::signbit(expected))
      return fail_expected("vload_half of 0x" + std::to_string(bits[i]), expected, loaded[i]);
    const bool same =
        nan ? (stored[i] & 0x7c00) == 0x7c00 && (stored[i] & 1023) != 0 : stored[i] == bits[i];
    if (!same)
      return fail_expected("vstore_half(vload_half(h)) for h=" + std::to_string(bits[i]), bits[i],
                           stored[i]);
  }
  return pass();
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
      return math::check_function<double>(env, program, f);
    });
  }
  registry.add("math", "half_storage_round_trip", "", half_storage);
  registry.add("math", "half_arithmetic", "fp16", half_arithmetic);
  registry.add("math", "integer_builtins", "", integer_ops);
}

}  // namespace xgpu::conform
