// Half-precision storage: every one of the 65,536 half values through vload_half (exact) and
// back through vstore_half, and float -> half rounding in all four modes
// (vstore_half_rte/_rtz/_rtp/_rtn) on the rounding boundaries of every finite half: exactly
// halfway, one float ulp above and below, the overflow boundary 65520, subnormal halves and
// floats below the smallest half, both signs. The host reference converts with exact integer
// arithmetic on the bits (written here, independent of xgpu/half.hpp). With --quick (the
// simulator) a stride picks about one value in 17.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "math_check.hpp"

namespace xgpu::conform::math {
namespace {

const char* const kHalfStorage = R"(
kernel void load(global const ushort* h, global float* f) {
  size_t i = get_global_id(0);
  f[i] = vload_half(i, (global const half*)h);
}
kernel void store(global const float* f, global ushort* h) {
  size_t i = get_global_id(0);
  vstore_half(f[i], i, (global half*)h);
}
kernel void store_rte(global const float* f, global ushort* h) {
  size_t i = get_global_id(0);
  vstore_half_rte(f[i], i, (global half*)h);
}
kernel void store_rtz(global const float* f, global ushort* h) {
  size_t i = get_global_id(0);
  vstore_half_rtz(f[i], i, (global half*)h);
}
kernel void store_rtp(global const float* f, global ushort* h) {
  size_t i = get_global_id(0);
  vstore_half_rtp(f[i], i, (global half*)h);
}
kernel void store_rtn(global const float* f, global ushort* h) {
  size_t i = get_global_id(0);
  vstore_half_rtn(f[i], i, (global half*)h);
}
)";

std::uint32_t bits_of(float value) {
  std::uint32_t bits;
  std::memcpy(&bits, &value, 4);
  return bits;
}

float float_of(std::uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, 4);
  return value;
}

bool is_half_nan(std::uint16_t h) { return (h & 0x7c00) == 0x7c00 && (h & 0x3ff) != 0; }

}  // namespace

std::uint32_t half_to_float_bits(std::uint16_t h) {
  const std::uint32_t sign = std::uint32_t(h & 0x8000) << 16;
  const std::uint32_t exponent = (h >> 10) & 31;
  std::uint32_t mantissa = h & 0x3ff;
  if (exponent == 31) return sign | 0x7f800000u | (mantissa << 13);
  if (exponent == 0) {
    if (mantissa == 0) return sign;
    int shift = 0;  // a subnormal half is a normal float: move the leading 1 to bit 10
    while (!(mantissa & 0x400)) mantissa <<= 1, ++shift;
    return sign | std::uint32_t(113 - shift) << 23 | (mantissa & 0x3ff) << 13;
  }
  return sign | (exponent + 112) << 23 | mantissa << 13;
}

std::uint16_t float_to_half_bits(std::uint32_t f, HalfRounding mode) {
  const std::uint16_t sign = static_cast<std::uint16_t>((f >> 16) & 0x8000);
  const std::uint32_t exponent = (f >> 23) & 0xff;
  const std::uint64_t mantissa = f & 0x7fffff;
  if (exponent == 0xff) return sign | (mantissa ? 0x7e00 : 0x7c00);
  // |f| = M * 2^E exactly; the half result is q * 2^ulp with the half's ulp at that binade
  // (2^(e-10)), never below 2^-24 (subnormal halves).
  const std::uint64_t M = exponent ? mantissa | 0x800000 : mantissa;
  if (M == 0) return sign;
  const int E = (exponent ? int(exponent) : 1) - 150;
  int top = 63;
  while (!(M >> top)) --top;
  const int ulp = std::max(top + E - 10, -24);
  const int shift = ulp - E;
  std::uint64_t q;
  bool above_half = false, at_half = false, inexact = false;
  if (shift <= 0) {
    q = M << -shift;
  } else if (shift > 40) {
    q = 0, inexact = true;  // below half of the smallest subnormal half
  } else {
    q = M >> shift;
    const std::uint64_t rest = M & ((std::uint64_t{1} << shift) - 1),
                        half = std::uint64_t{1} << (shift - 1);
    inexact = rest != 0, above_half = rest > half, at_half = rest == half;
  }
  const bool negative = sign != 0;
  switch (mode) {
    case HalfRounding::rte:
      if (above_half || (at_half && (q & 1))) ++q;
      break;
    case HalfRounding::rtz:
      break;
    case HalfRounding::rtp:
      if (inexact && !negative) ++q;
      break;
    case HalfRounding::rtn:
      if (inexact && negative) ++q;
      break;
  }
  // q < 2^11 sits in the binade's encoding; a carry to 2^11 runs on into the next exponent.
  const std::uint64_t encoded = (std::uint64_t(ulp + 24) << 10) + q;
  if (encoded >= 0x7c00) {  // overflow: infinity, or the largest finite half toward zero
    const bool to_infinity = mode == HalfRounding::rte ||
                             (mode == HalfRounding::rtp && !negative) ||
                             (mode == HalfRounding::rtn && negative);
    return sign | (to_infinity ? 0x7c00 : 0x7bff);
  }
  return sign | static_cast<std::uint16_t>(encoded);
}

namespace {

std::size_t stride(Env& env) { return env.quick() ? 17 : 1; }

Result vload_every_value(Env& env) {
  std::vector<std::uint16_t> halves;
  for (std::uint32_t h = 0; h < 65536; h += stride(env)) halves.push_back(std::uint16_t(h));
  halves.insert(halves.end(), {0x0001, 0x03ff, 0x0400, 0x7bff, 0x7c00, 0xfc00, 0x8001, 0x7e00});
  const std::size_t n = halves.size();
  Buffer<std::uint16_t> h = env.context().alloc<std::uint16_t>(n);
  Buffer<float> f = env.context().alloc<float>(n);
  env.queue().write(h, halves);
  env.queue().launch(env.program("conform_half.cl", kHalfStorage).kernel("load"), Range{n}, h, f);
  const std::vector<float> loaded = env.queue().read(f);
  std::size_t wrong = 0, first = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t expected = half_to_float_bits(halves[i]);
    const bool right =
        is_half_nan(halves[i]) ? std::isnan(loaded[i]) : bits_of(loaded[i]) == expected;
    if (!right && wrong++ == 0) first = i;
  }
  if (wrong == 0) return pass();
  char text[200];
  std::snprintf(text, sizeof text,
                "vload_half: %zu of %zu half values wrong; first: 0x%04x: expected %a, got %a",
                wrong, n, unsigned(halves[first]),
                double(float_of(half_to_float_bits(halves[first]))), double(loaded[first]));
  return fail(text);
}

// Runs kernel `kernel` (a vstore_half variant) on `inputs` and compares with `mode`'s rounding.
Result check_store(Env& env, const char* kernel, const std::vector<float>& inputs,
                   HalfRounding mode) {
  const std::size_t n = inputs.size();
  Buffer<float> f = env.context().alloc<float>(n);
  Buffer<std::uint16_t> h = env.context().alloc<std::uint16_t>(n);
  env.queue().write(f, inputs);
  env.queue().launch(env.program("conform_half.cl", kHalfStorage).kernel(kernel), Range{n}, f, h);
  const std::vector<std::uint16_t> stored = env.queue().read(h);
  std::size_t wrong = 0, first = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint16_t expected = float_to_half_bits(bits_of(inputs[i]), mode);
    bool right = is_half_nan(expected) ? is_half_nan(stored[i]) : stored[i] == expected;
    // A device without denormals may flush a subnormal float input to zero first.
    if (!right && std::fpclassify(inputs[i]) == FP_SUBNORMAL)
      right = stored[i] == float_to_half_bits(bits_of(flushed(inputs[i])), mode);
    if (!right && wrong++ == 0) first = i;
  }
  if (wrong == 0) return pass();
  char text[240];
  std::snprintf(
      text, sizeof text,
      "%s: %zu of %zu floats rounded wrong; first: %.9g (%a): expected 0x%04x, got 0x%04x", kernel,
      wrong, n, double(inputs[first]), double(inputs[first]),
      unsigned(float_to_half_bits(bits_of(inputs[first]), mode)), unsigned(stored[first]));
  return fail(text);
}

// vstore_half (default rounding: to nearest even) of every half value read back as float.
Result vstore_every_value(Env& env) {
  std::vector<float> inputs;
  for (std::uint32_t h = 0; h < 65536; h += stride(env))
    inputs.push_back(float_of(half_to_float_bits(std::uint16_t(h))));
  return check_store(env, "store", inputs, HalfRounding::rte);
}

}  // namespace

std::vector<float> half_rounding_boundaries(std::size_t step) {
  std::vector<float> inputs;
  for (std::uint32_t h = 0; h < 0x7c00; h += static_cast<std::uint32_t>(step)) {
    const float lower = float_of(half_to_float_bits(std::uint16_t(h)));
    const float upper = h == 0x7bff ? 65536.0f : float_of(half_to_float_bits(std::uint16_t(h + 1)));
    const float middle = lower + (upper - lower) / 2;  // exact: 11 bits in a 24-bit float
    for (float v : {middle, std::nextafter(middle, upper), std::nextafter(middle, lower),
                    std::nextafter(lower, upper), std::nextafter(upper, lower)}) {
      inputs.push_back(v);
      inputs.push_back(-v);
    }
  }
  for (float v :
       {65504.0f, 65520.0f, std::nextafter(65520.0f, 0.0f), std::nextafter(65520.0f, 1e9f),
        65536.0f, 1e10f, std::numeric_limits<float>::max(), std::numeric_limits<float>::infinity(),
        0x1p-25f, std::nextafter(0x1p-25f, 1.0f), std::nextafter(0x1p-25f, 0.0f), 0x1p-26f,
        0x1p-30f, std::numeric_limits<float>::denorm_min(), std::numeric_limits<float>::min(),
        0.0f}) {
    inputs.push_back(v);
    inputs.push_back(-v);
  }
  inputs.push_back(std::numeric_limits<float>::quiet_NaN());
  return inputs;
}

void register_math_half(Registry& registry) {
  registry.add("math", "half_vload_every_value", "", vload_every_value);
  registry.add("math", "half_vstore_every_value", "", vstore_every_value);
  const struct {
    const char* name;
    const char* kernel;
    HalfRounding mode;
  } modes[] = {{"half_vstore_rte_boundaries", "store_rte", HalfRounding::rte},
               {"half_vstore_rtz_boundaries", "store_rtz", HalfRounding::rtz},
               {"half_vstore_rtp_boundaries", "store_rtp", HalfRounding::rtp},
               {"half_vstore_rtn_boundaries", "store_rtn", HalfRounding::rtn}};
  for (const auto& m : modes) {
    registry.add("math", m.name, "", [m](Env& env) {
      return check_store(env, m.kernel, half_rounding_boundaries(env.quick() ? 17 : 1), m.mode);
    });
  }
}

}  // namespace xgpu::conform::math
