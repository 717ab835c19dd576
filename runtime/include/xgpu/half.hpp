// xgpu::half: IEEE 754 binary16 storage for Buffer<half>. Kernels read and write it with
// vload_half / vstore_half (every OpenCL device has them) and compute in float; the host
// converts with to_half / to_float.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <xgpu/export.hpp>

namespace xgpu {

/// Sixteen bits of binary16; no arithmetic of its own. Visible: libraries built with hidden
/// visibility export their instantiations for half only when half itself is.
struct XGPU_API half {
  std::uint16_t bits = 0;
  friend bool operator==(half a, half b) noexcept { return a.bits == b.bits; }
  friend bool operator!=(half a, half b) noexcept { return a.bits != b.bits; }
};

/// The nearest binary16 (round to nearest, ties to even); overflow gives infinity, NaN
/// stays NaN.
inline half to_half(float value) noexcept {
  std::uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  const auto sign = static_cast<std::uint16_t>((bits >> 16) & 0x8000u);
  const std::uint32_t magnitude = bits & 0x7fffffffu;
  if (magnitude >= 0x7f800000u) {  // infinity or NaN (a NaN keeps a set quiet bit)
    const bool nan = magnitude > 0x7f800000u;
    return half{static_cast<std::uint16_t>(sign | 0x7c00u |
                                           (nan ? 0x200u | ((magnitude >> 13) & 0x3ffu) : 0u))};
  }
  if (magnitude >= 0x477ff000u)
    return half{static_cast<std::uint16_t>(sign | 0x7c00u)};  // >= 65520
  if (magnitude < 0x38800000u) {
    // Below 2^-14 the result is subnormal: count units of 2^-24. Scaling by 2^24 is exact,
    // and lrint rounds half to even; 1024 units is the smallest normal, encoded the same.
    float absolute;
    std::memcpy(&absolute, &magnitude, sizeof(absolute));
    return half{static_cast<std::uint16_t>(sign | std::lrint(absolute * 16777216.0f))};
  }
  const std::uint32_t exponent = (magnitude >> 23) - 127 + 15;
  const std::uint32_t mantissa = magnitude & 0x7fffffu;
  std::uint32_t result = (exponent << 10) | (mantissa >> 13);
  const std::uint32_t rest = mantissa & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (result & 1u))) ++result;  // may carry into exponent
  return half{static_cast<std::uint16_t>(sign | result)};
}

/// The exact float value of a binary16.
inline float to_float(half value) noexcept {
  const std::uint32_t sign = std::uint32_t(value.bits & 0x8000u) << 16;
  const std::uint32_t exponent = (value.bits >> 10) & 0x1fu;
  const std::uint32_t mantissa = value.bits & 0x3ffu;
  float result;
  if (exponent == 0) {
    result = static_cast<float>(mantissa) * (1.0f / 16777216.0f);  // subnormal or zero
    return sign ? -result : result;
  }
  const std::uint32_t bits = exponent == 31
                                 ? sign | 0x7f800000u | (mantissa << 13)
                                 : sign | ((exponent - 15 + 127) << 23) | (mantissa << 13);
  std::memcpy(&result, &bits, sizeof(result));
  return result;
}

}  // namespace xgpu
