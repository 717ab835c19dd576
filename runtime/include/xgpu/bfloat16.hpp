// xgpu::bfloat16: the top 16 bits of an IEEE 754 binary32 (8 exponent bits, 7 fraction bits),
// storage for Buffer<bfloat16>. OpenCL C has no such type: kernels hold it as ushort and widen
// it to float exactly (bits << 16); the host converts with to_bfloat16 / to_float.
#pragma once

#include <cstdint>
#include <cstring>
#include <xgpu/export.hpp>

namespace xgpu {

/// Sixteen bits of bfloat16; no arithmetic of its own. Visible, like half: libraries built with
/// hidden visibility export their instantiations for it only when the type itself is.
struct XGPU_API bfloat16 {
  std::uint16_t bits = 0;
  friend bool operator==(bfloat16 a, bfloat16 b) noexcept { return a.bits == b.bits; }
  friend bool operator!=(bfloat16 a, bfloat16 b) noexcept { return a.bits != b.bits; }
};

/// The nearest bfloat16 (round to nearest, ties to even). Overflow gives infinity; float
/// subnormals round to bfloat16 subnormals (the two share the exponent range). A NaN stays
/// NaN with its sign and the top bits of its payload, made quiet (a payload held only in the
/// bits dropped would otherwise turn into infinity).
inline bfloat16 to_bfloat16(float value) noexcept {
  std::uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  if ((bits & 0x7fffffffu) > 0x7f800000u)
    return bfloat16{static_cast<std::uint16_t>((bits >> 16) | 0x40u)};
  // Adding just under half a unit of the kept bits, plus the kept lowest bit, carries into
  // them exactly when the dropped part is above half, or is half and the kept part is odd. A
  // carry out of the fraction raises the exponent, and past the largest finite value gives
  // the infinity pattern 0x7f80.
  const std::uint32_t rounded = bits + 0x7fffu + ((bits >> 16) & 1u);
  return bfloat16{static_cast<std::uint16_t>(rounded >> 16)};
}

/// The exact float value of a bfloat16.
inline float to_float(bfloat16 value) noexcept {
  const std::uint32_t bits = std::uint32_t(value.bits) << 16;
  float result;
  std::memcpy(&result, &bits, sizeof(result));
  return result;
}

}  // namespace xgpu
