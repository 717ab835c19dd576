// Prefix sums (scans) of a buffer into another, or into itself. They stay on the device: each
// returns the Event of its last command, and the queue runs them in order with the rest.
#pragma once

#include <xgpu/algorithms/types.hpp>
#include <xgpu/export.hpp>
#include <xgpu/queue.hpp>

namespace xgpu {
namespace detail {
/// out = init + the inclusive or exclusive scan of in; `call` names the public function in
/// errors.
template <class T>
XGPU_ALGORITHMS_API Event scan(Queue& queue, const Buffer<T>& in, const Buffer<T>& out,
                               scalar_t<T> init, bool inclusive, const char* call);

template <class T>
constexpr void require_scan_type() {
  static_assert(is_algorithm_type_v<T>,
                "xgpu scans take Buffer<T> of float, double, std::int32_t, std::uint32_t or "
                "xgpu::half");
}
}  // namespace detail

/// out[i] = in[0] + ... + in[i], for any length (0 enqueues nothing and returns an empty
/// Event). `in` and `out` may be the same buffer (a scan in place). On CPU devices it is one
/// launch that reads `in` from memory once (three in place); elsewhere three launches. Results
/// do not depend on timing: the same input gives the same bits. Types: float, double
/// (needs fp64, else Errc::unsupported), std::int32_t and std::uint32_t (sums wrap modulo
/// 2^32, like C++ unsigned arithmetic), and xgpu::half (sums in float, each result rounded to
/// half). Throws invalid_argument when out's size differs from in's.
/// Accuracy (floating types): out[i] is within (i + 64) * u * (|in[0]| + ... + |in[i]|) of the
/// exact prefix sum, u the unit roundoff (2^-24 for float, 2^-53 for double): the bound of a
/// sequential loop, which the scan's shorter chains of additions meet; plus, for half, the
/// final rounding to half.
template <class T>
Event inclusive_scan(Queue& queue, const Buffer<T>& in, const Buffer<T>& out) {
  detail::require_scan_type<T>();
  return detail::scan(queue, in, out, scalar_t<T>(0), true, "xgpu::inclusive_scan");
}

/// out[i] = init + in[0] + ... + in[i - 1] (out[0] = init), for any length. As inclusive_scan
/// otherwise: in place allowed, same types, wrapping and accuracy (counting init as one more
/// element), size mismatch throws invalid_argument.
template <class T>
Event exclusive_scan(Queue& queue, const Buffer<T>& in, const Buffer<T>& out,
                     scalar_t<T> init = scalar_t<T>(0)) {
  detail::require_scan_type<T>();
  return detail::scan(queue, in, out, init, false, "xgpu::exclusive_scan");
}

}  // namespace xgpu
