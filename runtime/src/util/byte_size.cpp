// Reading and writing sizes in bytes. The parser reads digits itself rather than through
// strtod, which would also take "nan", "inf", "0x1p3", "1e30" and leading blanks.
#include "util/byte_size.hpp"

#include <array>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <limits>

namespace xgpu::util {
namespace {

bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

/// The power of 1024 a unit letter stands for: K 1, M 2, G 3, T 4; -1 for any other.
int unit_power(char letter) {
  constexpr std::string_view kLetters = "KMGT";
  const std::size_t at =
      kLetters.find(static_cast<char>(std::toupper(static_cast<unsigned char>(letter))));
  return at == std::string_view::npos ? -1 : static_cast<int>(at) + 1;
}

/// The unit after the number: "", "B", or K/M/G/T then an optional "i" then an optional
/// "B". The power of 1024 it stands for; -1 when it is not a unit.
int parse_unit(std::string_view unit) {
  if (unit.empty() || unit == "B" || unit == "b") return 0;
  const int power = unit_power(unit[0]);
  std::string_view rest = unit.substr(1);
  if (!rest.empty() && rest[0] == 'i') rest.remove_prefix(1);
  if (rest.empty() || rest == "B" || rest == "b") return power;
  return -1;
}

}  // namespace

std::optional<std::uint64_t> parse_byte_size(std::string_view text) {
  constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
  std::size_t at = 0;
  std::uint64_t whole = 0;
  bool any_digit = false;
  for (; at < text.size() && is_digit(text[at]); ++at, any_digit = true) {
    const unsigned digit = static_cast<unsigned>(text[at] - '0');
    if (whole > (kMax - digit) / 10) return std::nullopt;
    whole = whole * 10 + digit;
  }
  // The fraction as digits over a power of ten. Digits past the 18th are dropped: together
  // they are worth less than a millionth of a byte even in terabytes.
  std::uint64_t numerator = 0, denominator = 1;
  if (at < text.size() && text[at] == '.') {
    for (++at; at < text.size() && is_digit(text[at]); ++at, any_digit = true) {
      if (denominator < 1000000000000000000ull) {
        numerator = numerator * 10 + static_cast<unsigned>(text[at] - '0');
        denominator *= 10;
      }
    }
  }
  if (!any_digit) return std::nullopt;
  const int power = parse_unit(text.substr(at));
  if (power < 0) return std::nullopt;
  const std::uint64_t scale = std::uint64_t{1} << (10 * power);
  if (whole > kMax / scale) return std::nullopt;
  const std::uint64_t bytes = whole * scale;
  // The fraction's bytes, floor(numerator * 2^(10 power) / denominator), exactly: one bit of
  // the quotient per doubling (the remainder stays below 10^18, so doubling it cannot wrap).
  std::uint64_t part = 0, remainder = numerator;
  for (int bit = 0; bit < 10 * power; ++bit) {
    remainder *= 2;
    part *= 2;
    if (remainder >= denominator) {
      remainder -= denominator;
      ++part;
    }
  }
  if (part > kMax - bytes) return std::nullopt;
  return bytes + part;
}

}  // namespace xgpu::util

namespace xgpu {

std::string format_bytes(std::uint64_t bytes) {
  static constexpr std::array<const char*, 7> kUnits{"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  std::size_t unit = 0;
  double value = static_cast<double>(bytes);
  while (value >= 1024.0 && unit + 1 < kUnits.size()) {
    value /= 1024.0;
    ++unit;
  }
  // 1048575 bytes is 1023.999 KiB, which rounds to "1 MiB", not "1024 KiB".
  if (unit > 0 && std::round(value * 100) >= 1024 * 100 && unit + 1 < kUnits.size()) {
    value /= 1024.0;
    ++unit;
  }
  char number[40];
  std::snprintf(number, sizeof number, unit == 0 ? "%.0f" : "%.2f", value);
  // "1.50" reads better as "1.5", and "2.00" as "2".
  std::string text = number;
  if (text.find('.') != std::string::npos) {
    while (text.back() == '0') text.pop_back();
    if (text.back() == '.') text.pop_back();
  }
  return text + ' ' + kUnits[unit];
}

}  // namespace xgpu
