// xgpu::to_half and xgpu::to_float (xgpu/half.hpp) on the host, against a reference built
// here from the definition of binary16 alone: every one of the 65,536 halves decoded and
// round-tripped bit-exactly (NaNs stay NaN), and float -> half rounding to nearest, ties to
// even, on and either side of every rounding boundary, into overflow and underflow. Then
// xgpu::to_bfloat16 and to_float (xgpu/bfloat16.hpp) the same way, against the integer
// reference of float_formats.hpp.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>
#include <xgpu/bfloat16.hpp>
#include <xgpu/half.hpp>

#include "float_formats.hpp"

namespace {

/// The value of a binary16 from its fields: (-1)^s 2^(e - 15) (1 + m / 1024), subnormals
/// 2^-14 (m / 1024), e = 31 infinity or NaN. In double, where every half is exact.
double decode(std::uint16_t bits) {
  const int exponent = (bits >> 10) & 0x1f, mantissa = bits & 0x3ff;
  const double sign = (bits & 0x8000) ? -1.0 : 1.0;
  if (exponent == 31)
    return mantissa ? std::numeric_limits<double>::quiet_NaN()
                    : sign * std::numeric_limits<double>::infinity();
  if (exponent == 0) return sign * std::ldexp(mantissa, -24);
  return sign * std::ldexp(1024 + mantissa, exponent - 25);
}

/// Every non-negative finite half's value, indexed by its bits (increasing), then 65536 for
/// 0x7c00: the value infinity replaces when rounding (overflow rounds to it as to a half one
/// step above 65504).
const std::vector<double>& ladder() {
  static const std::vector<double> values = [] {
    std::vector<double> v;
    for (std::uint32_t bits = 0; bits < 0x7c00; ++bits)
      v.push_back(decode(static_cast<std::uint16_t>(bits)));
    v.push_back(65536.0);
    return v;
  }();
  return values;
}

/// The nearest half to `value` (a float), ties to the even bit pattern, found on the ladder
/// by exact comparisons in double (a float and two neighbouring halves differ by an amount
/// that double holds exactly).
std::uint16_t reference_to_half(float value) {
  if (std::isnan(value)) return 0x7e00;
  const std::uint16_t sign = std::signbit(value) ? 0x8000 : 0;
  const double magnitude = std::fabs(static_cast<double>(value));
  const std::vector<double>& steps = ladder();
  if (magnitude >= steps.back()) return sign | 0x7c00;
  // steps[low] <= magnitude < steps[low + 1]
  const std::size_t low =
      static_cast<std::size_t>(std::upper_bound(steps.begin(), steps.end(), magnitude) -
                               steps.begin()) -
      1;
  const double below = magnitude - steps[low], above = steps[low + 1] - magnitude;
  std::size_t chosen = low;
  if (above < below || (above == below && (low & 1) != 0)) chosen = low + 1;
  return static_cast<std::uint16_t>(sign | chosen);  // 0x7c00 when it rounds past 65504
}

float next_toward(float from, float to) { return std::nextafter(from, to); }

bool is_half_nan(std::uint16_t bits) { return (bits & 0x7c00) == 0x7c00 && (bits & 0x3ff) != 0; }

}  // namespace

TEST_CASE("to_float is exact and to_half(to_float(h)) == h for all 65,536 halves", "[half]") {
  std::size_t wrong = 0;
  for (std::uint32_t bits = 0; bits <= 0xffff; ++bits) {
    const xgpu::half h{static_cast<std::uint16_t>(bits)};
    const float f = xgpu::to_float(h);
    const double expected = decode(h.bits);
    const xgpu::half back = xgpu::to_half(f);
    bool good;
    if (is_half_nan(h.bits))
      good = std::isnan(f) && is_half_nan(back.bits);
    else
      good = static_cast<double>(f) == expected && std::signbit(f) == ((bits & 0x8000) != 0) &&
             back.bits == h.bits;
    if (!good && wrong++ < 5)
      FAIL_CHECK("half 0x" << std::hex << bits << ": to_float " << f << " (expected " << expected
                           << "), back to 0x" << back.bits);
  }
  CHECK(wrong == 0);
}

TEST_CASE("to_half rounds to nearest, ties to even, on every rounding boundary", "[half]") {
  // Each pair of neighbouring halves (and 65504 with the overflow threshold above it): the
  // two, the midpoint (a tie: to the even one), and the floats just below and above it.
  const std::vector<double>& steps = ladder();
  std::vector<float> inputs;
  for (std::size_t i = 0; i + 1 < steps.size(); ++i) {
    const auto low = static_cast<float>(steps[i]), high = static_cast<float>(steps[i + 1]);
    const auto middle = static_cast<float>((steps[i] + steps[i + 1]) / 2);  // exact in float
    REQUIRE(static_cast<double>(middle) == (steps[i] + steps[i + 1]) / 2);
    for (float v : {low, high, middle, next_toward(middle, 0.0f), next_toward(middle, 1e30f)}) {
      inputs.push_back(v);
      inputs.push_back(-v);
    }
  }
  std::size_t wrong = 0, ties_up = 0, ties_down = 0;
  for (float v : inputs) {
    const std::uint16_t expected = reference_to_half(v), got = xgpu::to_half(v).bits;
    if (got != expected && wrong++ < 5)
      FAIL_CHECK("to_half(" << v << "): expected 0x" << std::hex << expected << ", got 0x" << got);
  }
  CHECK(wrong == 0);
  // The reference itself: ties go both ways (to the even neighbour), never always one way.
  for (std::size_t i = 0; i + 1 < steps.size(); ++i) {
    const std::uint16_t tie = reference_to_half(static_cast<float>((steps[i] + steps[i + 1]) / 2));
    (tie == i ? ties_down : ties_up) += 1;
  }
  CHECK(ties_down > 15000);
  CHECK(ties_up > 15000);
}

TEST_CASE("to_half: overflow, underflow, known values and random floats", "[half]") {
  const float inf = std::numeric_limits<float>::infinity();
  struct Known {
    float value;
    std::uint16_t bits;
  };
  // Facts about binary16 (IEEE 754-2008), not derived from either implementation.
  const Known known[] = {
      {0.0f, 0x0000},
      {-0.0f, 0x8000},
      {1.0f, 0x3c00},
      {-2.0f, 0xc000},
      {0.1f, 0x2e66},
      {1.0f / 3, 0x3555},
      {65504.0f, 0x7bff},    // the largest half
      {65519.996f, 0x7bff},  // just below the overflow threshold
      {65520.0f, 0x7c00},    // halfway to 2^16: ties to even, infinity
      {1e10f, 0x7c00},       // overflow
      {std::numeric_limits<float>::max(), 0x7c00},
      {inf, 0x7c00},
      {-inf, 0xfc00},
      {0x1p-14f, 0x0400},         // the smallest normal
      {0x1p-24f, 0x0001},         // the smallest subnormal
      {0x1p-25f, 0x0000},         // halfway to it: ties to even, zero
      {0x1.000002p-25f, 0x0001},  // just above halfway
      {0x1.8p-24f, 0x0002},       // 1.5 units: tie, to the even 2
      {0x1.4p-23f, 0x0002},       // 2.5 units: tie, to the even 2
      {-0x1p-30f, 0x8000},        // underflow keeps the sign
      {std::numeric_limits<float>::denorm_min(), 0x0000},
      {0x1.ff8p-15f, 0x03ff},  // the largest subnormal, 1023 units
      {0x1.ffcp-15f, 0x0400},  // halfway between it and the smallest normal: even
  };
  for (const Known& k : known) {
    INFO("to_half(" << k.value << ")");
    CHECK(xgpu::to_half(k.value).bits == k.bits);
    CHECK(reference_to_half(k.value) == k.bits);  // the reference agrees with the facts
  }
  CHECK(is_half_nan(xgpu::to_half(std::numeric_limits<float>::quiet_NaN()).bits));
  CHECK(is_half_nan(xgpu::to_half(-std::numeric_limits<float>::quiet_NaN()).bits));
  CHECK(is_half_nan(xgpu::to_half(std::numeric_limits<float>::signaling_NaN()).bits));

  // Random float bit patterns over every exponent (most overflow or underflow).
  std::uint64_t state = 0x2545F4914F6CDD1Dull;
  std::size_t wrong = 0;
  for (int i = 0; i < (1 << 20); ++i) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    // Exponents near half's range twice as often as the rest.
    auto bits = static_cast<std::uint32_t>(state >> 32);
    if (i % 2)
      bits = (bits & 0x807fffffu) | ((100u + static_cast<std::uint32_t>(state % 45)) << 23);
    float v;
    std::memcpy(&v, &bits, sizeof v);
    const std::uint16_t got = xgpu::to_half(v).bits, expected = reference_to_half(v);
    const bool good = std::isnan(v) ? is_half_nan(got) : got == expected;
    if (!good && wrong++ < 5)
      FAIL_CHECK("to_half of bits 0x" << std::hex << bits << ": expected 0x" << expected
                                      << ", got 0x" << got);
  }
  CHECK(wrong == 0);
}

namespace {

namespace fmt = xgpu_test::formats;

float float_of_bits(std::uint32_t bits) { return fmt::from_bits<float>(bits); }

}  // namespace

TEST_CASE("bfloat16: to_float is exact and round-trips all 65,536 values", "[half]") {
  std::size_t wrong = 0;
  for (std::uint32_t bits = 0; bits <= 0xffff; ++bits) {
    const xgpu::bfloat16 b{static_cast<std::uint16_t>(bits)};
    const float f = xgpu::to_float(b);
    const std::uint64_t exact = fmt::round_to(fmt::decode(bits, fmt::kBfloat16), fmt::kFloat);
    const xgpu::bfloat16 back = xgpu::to_bfloat16(f);
    bool good;
    if (fmt::is_nan(bits, fmt::kBfloat16))  // sign and payload kept, made quiet
      good = std::isnan(f) && back.bits == (bits | 0x40u);
    else
      good = fmt::bits_of(f) == exact && back.bits == bits;
    if (!good && wrong++ < 5)
      FAIL_CHECK("bfloat16 0x" << std::hex << bits << ": to_float bits 0x" << fmt::bits_of(f)
                               << " (expected 0x" << exact << "), back to 0x" << back.bits);
  }
  CHECK(wrong == 0);
}

TEST_CASE("bfloat16: to_bfloat16 rounds to nearest, ties to even, on every boundary", "[half]") {
  // bfloat16 is the top half of a float, so the midpoint between neighbours k and k + 1 is
  // the float k << 16 | 0x8000 (for the largest finite k: the overflow threshold).
  std::vector<float> inputs;
  std::size_t ties_up = 0, ties_down = 0;
  for (std::uint32_t k = 0; k < 0x7f80; ++k) {
    const std::uint32_t middle = k << 16 | 0x8000u;
    for (std::uint32_t bits : {k << 16, middle, middle - 1, middle + 1}) {
      inputs.push_back(float_of_bits(bits));
      inputs.push_back(float_of_bits(bits | 0x80000000u));
    }
    const std::uint64_t tie = fmt::reference_cast<xgpu::bfloat16>(float_of_bits(middle));
    (tie == k ? ties_down : ties_up) += 1;
  }
  // The reference's ties go to the even neighbour, both ways.
  CHECK(ties_down == 0x7f80 / 2);
  CHECK(ties_up == 0x7f80 / 2);
  for (float v : {std::numeric_limits<float>::infinity(), std::numeric_limits<float>::max(),
                  std::numeric_limits<float>::denorm_min(), 0x1p-133f, 0x1.8p-133f, 0x1p-134f}) {
    inputs.push_back(v);
    inputs.push_back(-v);
  }
  // Random float bit patterns.
  std::uint64_t state = 0x2545F4914F6CDD1Dull;
  for (int i = 0; i < (1 << 18); ++i) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    inputs.push_back(float_of_bits(static_cast<std::uint32_t>(state >> 32)));
  }
  std::size_t wrong = 0;
  for (float v : inputs) {
    const std::uint64_t expected = fmt::reference_cast<xgpu::bfloat16>(v);
    const std::uint16_t got = xgpu::to_bfloat16(v).bits;
    const bool good = std::isnan(v) ? fmt::is_nan(got, fmt::kBfloat16) : got == expected;
    if (!good && wrong++ < 5)
      FAIL_CHECK("to_bfloat16 of bits 0x" << std::hex << fmt::bits_of(v) << ": expected 0x"
                                          << expected << ", got 0x" << got);
  }
  CHECK(wrong == 0);
  // Facts of the format, not derived from either implementation.
  CHECK(xgpu::to_bfloat16(1.0f).bits == 0x3f80);
  CHECK(xgpu::to_bfloat16(-2.0f).bits == 0xc000);
  CHECK(xgpu::to_bfloat16(0x1.01p0f).bits == 0x3f80);  // a tie: to the even 0x3f80
  CHECK(xgpu::to_bfloat16(0x1.03p0f).bits == 0x3f82);  // a tie: to the even 0x3f82
  CHECK(xgpu::to_bfloat16(3.0e38f).bits == 0x7f62);
  CHECK(xgpu::to_bfloat16(std::numeric_limits<float>::max()).bits == 0x7f80);  // overflow
  CHECK(xgpu::to_bfloat16(0x1p-133f).bits == 0x0001);  // the smallest subnormal
}

TEST_CASE("bfloat16: NaNs stay NaN with their sign and top payload bits", "[half]") {
  for (std::uint32_t bits : {0x7fc00000u, 0xffc00000u, 0x7f800001u, 0x7fa50000u, 0xff80ffffu}) {
    INFO("float bits 0x" << std::hex << bits);
    const std::uint16_t got = xgpu::to_bfloat16(float_of_bits(bits)).bits;
    CHECK(fmt::is_nan(got, fmt::kBfloat16));
    CHECK((got & 0x8000u) == ((bits >> 16) & 0x8000u));
    CHECK((got & 0x3fu) == ((bits >> 16) & 0x3fu));
  }
}
