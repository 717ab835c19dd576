// The element types of the algorithms library and the scalar type that goes with each.
#pragma once

#include <cstdint>
#include <type_traits>
#include <xgpu/bfloat16.hpp>
#include <xgpu/half.hpp>

namespace xgpu {

/// Whether the algorithms library works on Buffer<T>: float, double (on devices with fp64),
/// std::int32_t, std::uint32_t, and xgpu::half (storage only: arithmetic is in float).
template <class T>
inline constexpr bool is_algorithm_type_v =
    std::is_same_v<T, float> || std::is_same_v<T, double> || std::is_same_v<T, std::int32_t> ||
    std::is_same_v<T, std::uint32_t> || std::is_same_v<T, half>;

/// The 16-bit floating storage types, xgpu::half and xgpu::bfloat16: kernels widen them to
/// float, compute in float (or in half, where the device has cl_khr_fp16 and says so), and
/// round once when they store.
template <class T>
inline constexpr bool is_16bit_float_v = std::is_same_v<T, half> || std::is_same_v<T, bfloat16>;

/// The floating types: float, double, half and bfloat16 (xgpu::cast converts between them).
template <class T>
inline constexpr bool is_floating_type_v =
    std::is_same_v<T, float> || std::is_same_v<T, double> || is_16bit_float_v<T>;

/// The type of scalars (alpha, a fill value, a result) for elements of type T: float for
/// half and bfloat16, T otherwise.
template <class T>
using scalar_t = std::conditional_t<is_16bit_float_v<T>, float, T>;

}  // namespace xgpu
