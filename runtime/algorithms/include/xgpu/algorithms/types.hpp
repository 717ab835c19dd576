// The element types of the algorithms library and the scalar type that goes with each.
#pragma once

#include <cstdint>
#include <type_traits>
#include <xgpu/half.hpp>

namespace xgpu {

/// Whether the algorithms library works on Buffer<T>: float, double (on devices with fp64),
/// std::int32_t, std::uint32_t, and xgpu::half (storage only: arithmetic is in float).
template <class T>
inline constexpr bool is_algorithm_type_v =
    std::is_same_v<T, float> || std::is_same_v<T, double> || std::is_same_v<T, std::int32_t> ||
    std::is_same_v<T, std::uint32_t> || std::is_same_v<T, half>;

/// The type of scalars (alpha, a fill value, a result) for elements of type T: float for
/// half, T otherwise.
template <class T>
using scalar_t = std::conditional_t<std::is_same_v<T, half>, float, T>;

}  // namespace xgpu
