// The host's view of OpenCL C's integer types for the integer and conversions suites:
// exact values in 128-bit integers (wide enough for every product and sum of two 64-bit
// values), wrapping and saturating to a type, edge and random values, and printing.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "check.hpp"

namespace xgpu::conform {

using Wide = __int128;
using UWide = unsigned __int128;

// An integer type of OpenCL C, as the reference sees it.
struct IntType {
  const char* name;
  int bits;
  bool is_signed;
  Wide min() const { return is_signed ? -(Wide{1} << (bits - 1)) : 0; }
  Wide max() const { return is_signed ? (Wide{1} << (bits - 1)) - 1 : (Wide{1} << bits) - 1; }
  IntType as_unsigned() const { return {name, bits, false}; }
  // The value of the low `bits` bits of v in this type (modulo arithmetic).
  Wide wrap(Wide v) const {
    const UWide mask = (UWide{1} << bits) - 1;
    const Wide low = static_cast<Wide>(static_cast<UWide>(v) & mask);
    return is_signed && low > max() ? low - (Wide{1} << bits) : low;
  }
  Wide saturate(Wide v) const { return v < min() ? min() : v > max() ? max() : v; }
  UWide pattern(Wide v) const { return static_cast<UWide>(v) & ((UWide{1} << bits) - 1); }
};

inline std::string text(Wide v) {
  if (v == 0) return "0";
  std::string digits;
  const bool negative = v < 0;
  UWide magnitude = negative ? -static_cast<UWide>(v) : static_cast<UWide>(v);
  for (; magnitude; magnitude /= 10) digits.insert(digits.begin(), char('0' + magnitude % 10));
  return negative ? "-" + digits : digits;
}

template <class T>
IntType type_of(const char* name) {
  return {name, static_cast<int>(8 * sizeof(T)), std::is_signed<T>::value};
}

// Edge values of t, each once.
inline std::vector<Wide> edges(const IntType& t) {
  const Wide candidates[] = {0,
                             1,
                             t.wrap(-1),
                             t.min(),
                             t.max(),
                             t.min() + 1,
                             t.max() - 1,
                             Wide{1} << (t.bits - 1),
                             (Wide{1} << (t.bits - 1)) - 1};
  std::vector<Wide> values;
  for (Wide v : candidates) {
    v = t.wrap(v);
    bool seen = false;
    for (Wide w : values) seen = seen || w == v;
    if (!seen) values.push_back(v);
  }
  return values;
}

// Random values of t: all bits random, shifted right by a random amount (small and large
// magnitudes), negated half the time when signed.
inline Wide random_value(const IntType& t, std::mt19937_64& random) {
  const UWide bits = static_cast<UWide>(random()) >> (random() % t.bits + (64 - t.bits));
  const Wide v = t.wrap(static_cast<Wide>(bits));
  return t.is_signed && (random() & 1) ? t.wrap(-v) : v;
}

// The values as a device buffer of T.
template <class T>
Buffer<T> upload(Env& env, const std::vector<Wide>& values) {
  std::vector<T> host(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) host[i] = static_cast<T>(values[i]);
  Buffer<T> buffer = env.context().alloc<T>(host.size());
  env.queue().write(buffer, host);
  return buffer;
}

}  // namespace xgpu::conform
