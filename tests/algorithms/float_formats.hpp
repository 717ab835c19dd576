// A host reference for the binary floating formats (half, bfloat16, float, double) written
// with integer arithmetic only: a value is decoded from its bits into sign * m * 2^e (m an
// integer) and rounded into another format by shifting m, to nearest with ties to even,
// overflowing to infinity. It shares nothing with the library's conversions (xgpu/half.hpp,
// xgpu/bfloat16.hpp, kernels/cast.cl), so it can judge them. Used by test_half.cpp and
// test_cast.cpp.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <xgpu/bfloat16.hpp>
#include <xgpu/half.hpp>

namespace xgpu_test::formats {

/// A binary format: `precision` significand bits (the implicit one included), normal
/// exponents emin .. emax (the bias is emax), `bits` in all.
struct Format {
  const char* name;
  int precision, emin, emax, bits;
  int fraction_bits() const { return precision - 1; }
  int exponent_bits() const { return bits - precision; }
  std::uint64_t exponent_field(std::uint64_t bits_value) const {
    return (bits_value >> fraction_bits()) & ((std::uint64_t{1} << exponent_bits()) - 1);
  }
  std::uint64_t fraction(std::uint64_t bits_value) const {
    return bits_value & ((std::uint64_t{1} << fraction_bits()) - 1);
  }
  std::uint64_t sign_bit() const { return std::uint64_t{1} << (bits - 1); }
  std::uint64_t infinity() const {
    return ((std::uint64_t{1} << exponent_bits()) - 1) << fraction_bits();
  }
  std::uint64_t all_bits() const {
    return bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
  }
};
inline constexpr Format kHalf{"half", 11, -14, 15, 16};
inline constexpr Format kBfloat16{"bfloat16", 8, -126, 127, 16};
inline constexpr Format kFloat{"float", 24, -126, 127, 32};
inline constexpr Format kDouble{"double", 53, -1022, 1023, 64};

/// A value as sign * m * 2^e, or a NaN or an infinity.
struct Exact {
  bool negative = false, nan = false, infinite = false;
  std::uint64_t m = 0;
  int e = 0;
};

inline bool is_nan(std::uint64_t bits, const Format& f) {
  return f.exponent_field(bits) == (std::uint64_t{1} << f.exponent_bits()) - 1 &&
         f.fraction(bits) != 0;
}

inline Exact decode(std::uint64_t bits, const Format& f) {
  Exact x;
  x.negative = (bits & f.sign_bit()) != 0;
  const std::uint64_t field = f.exponent_field(bits), fraction = f.fraction(bits);
  if (field == (std::uint64_t{1} << f.exponent_bits()) - 1) {
    x.nan = fraction != 0;
    x.infinite = fraction == 0;
    return x;
  }
  // Subnormals (field 0) have no implicit bit and the exponent of the smallest normal.
  x.m = field == 0 ? fraction : fraction | (std::uint64_t{1} << f.fraction_bits());
  x.e = (field == 0 ? f.emin : static_cast<int>(field) - f.emax) - f.fraction_bits();
  return x;
}

/// The bits of `x` rounded into `f`: to nearest, ties to the even significand; +-infinity
/// when the rounded value exceeds f's largest finite value; a NaN as the quiet NaN pattern
/// with the sign (callers compare NaNs with is_nan, not bit for bit).
inline std::uint64_t round_to(const Exact& x, const Format& f) {
  const std::uint64_t sign = x.negative ? f.sign_bit() : 0;
  if (x.nan) return sign | f.infinity() | (std::uint64_t{1} << (f.fraction_bits() - 1));
  if (x.infinite) return sign | f.infinity();
  if (x.m == 0) return sign;
  int length = 0;  // bits of m
  while (length < 64 && (x.m >> length) != 0) ++length;
  const int leading = x.e + length - 1;  // the exponent of m's leading bit
  // The unit of the result's last significand bit: 2^q.
  const int q = (leading > f.emin ? leading : f.emin) - f.fraction_bits();
  std::uint64_t r;  // the value in units of 2^q, rounded
  if (x.e >= q) {
    r = x.m << (x.e - q);  // exact: fewer than `precision` bits
  } else {
    const int shift = q - x.e;
    if (shift > 64) {
      r = 0;  // below a quarter unit: rounds to zero
    } else if (shift == 64) {
      r = x.m > (std::uint64_t{1} << 63) ? 1 : 0;  // above half a unit rounds up; a tie to 0
    } else {
      r = x.m >> shift;
      const std::uint64_t rest = x.m - (r << shift), half_unit = std::uint64_t{1} << (shift - 1);
      if (rest > half_unit || (rest == half_unit && (r & 1) != 0)) ++r;
    }
  }
  int exponent = q;
  if (r == (std::uint64_t{1} << f.precision)) {  // rounding carried into a new bit
    r >>= 1;
    ++exponent;
  }
  if (r < (std::uint64_t{1} << f.fraction_bits())) return sign | r;  // subnormal or zero
  const std::int64_t field = exponent + f.fraction_bits() + f.emax;
  if (field >= (std::int64_t{1} << f.exponent_bits()) - 1) return sign | f.infinity();
  return sign | (static_cast<std::uint64_t>(field) << f.fraction_bits()) |
         (r - (std::uint64_t{1} << f.fraction_bits()));
}

// ---- The C++ types of the formats and their bits ----

template <class T>
constexpr const Format& format_of() {
  if constexpr (std::is_same_v<T, xgpu::half>) return kHalf;
  if constexpr (std::is_same_v<T, xgpu::bfloat16>) return kBfloat16;
  if constexpr (std::is_same_v<T, float>) return kFloat;
  if constexpr (std::is_same_v<T, double>) return kDouble;
}

template <class T>
std::uint64_t bits_of(T value) {
  if constexpr (std::is_same_v<T, xgpu::half> || std::is_same_v<T, xgpu::bfloat16>) {
    return value.bits;
  } else if constexpr (std::is_same_v<T, float>) {
    std::uint32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    return bits;
  } else {
    std::uint64_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    return bits;
  }
}

template <class T>
T from_bits(std::uint64_t bits) {
  if constexpr (std::is_same_v<T, xgpu::half> || std::is_same_v<T, xgpu::bfloat16>) {
    return T{static_cast<std::uint16_t>(bits)};
  } else if constexpr (std::is_same_v<T, float>) {
    const auto narrow = static_cast<std::uint32_t>(bits);
    float value;
    std::memcpy(&value, &narrow, sizeof value);
    return value;
  } else {
    double value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
  }
}

/// The reference conversion of `value` to To, as bits.
template <class To, class From>
std::uint64_t reference_cast(From value) {
  return round_to(decode(bits_of(value), format_of<From>()), format_of<To>());
}

}  // namespace xgpu_test::formats
