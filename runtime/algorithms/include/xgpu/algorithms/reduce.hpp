// Reductions of a buffer to one host value: sum, min, max, argmin, argmax, dot and norm2.
// Each blocks until its result is on the host, and runs after the commands already in the
// queue (the queue is in order).
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>
#include <xgpu/algorithms/types.hpp>
#include <xgpu/export.hpp>
#include <xgpu/queue.hpp>

namespace xgpu {
namespace detail {
template <class T>
XGPU_ALGORITHMS_API scalar_t<T> reduce_sum(Queue& queue, const Buffer<T>& x);
template <class T>
XGPU_ALGORITHMS_API scalar_t<T> reduce_dot(Queue& queue, const Buffer<T>& x, const Buffer<T>& y);
template <class T>
XGPU_ALGORITHMS_API scalar_t<T> reduce_norm2(Queue& queue, const Buffer<T>& x);
/// The extreme of x (is_max: largest, else smallest) and its index; `call` names the public
/// function in errors.
template <class T>
XGPU_ALGORITHMS_API std::pair<scalar_t<T>, std::size_t> reduce_extreme(Queue& queue,
                                                                       const Buffer<T>& x,
                                                                       bool is_max,
                                                                       const char* call);

template <class T>
constexpr void require_reduce_type() {
  static_assert(is_algorithm_type_v<T> || std::is_same_v<T, bfloat16>,
                "xgpu reductions take Buffer<T> of float, double, std::int32_t, std::uint32_t, "
                "xgpu::half or xgpu::bfloat16");
}
}  // namespace detail

/// The sum of the elements of x; 0 for an empty buffer. Types: float, double (needs fp64,
/// else Errc::unsupported), std::int32_t, std::uint32_t (both wrap modulo 2^32, like C++
/// unsigned arithmetic), xgpu::half and xgpu::bfloat16 (each element widened exactly to
/// float and accumulated in float; the result is a float, never rounded back to 16 bits).
/// Accuracy (floating types): |result - exact| <= 40 * u * sum(|x[i]|) for any n, u the unit
/// roundoff of the result type (2^-24 for float, half and bfloat16, 2^-53 for double): short blocks
/// are added plainly, the blocks with Kahan compensation, and the rest pairwise (see reduce.cl).
/// Summing 2^24 float ones gives exactly 16777216. A NaN gives NaN; infinities and overflow
/// give the infinity plain summation would.
template <class T>
scalar_t<T> sum(Queue& queue, const Buffer<T>& x) {
  detail::require_reduce_type<T>();
  return detail::reduce_sum(queue, x);
}

/// The smallest element of x. Types as for sum (half and bfloat16 give float). A NaN anywhere gives
/// NaN (NaN counts as the most extreme value, as in numpy and PyTorch). Throws invalid_argument for
/// an empty buffer (it has no minimum).
template <class T>
scalar_t<T> min(Queue& queue, const Buffer<T>& x) {
  detail::require_reduce_type<T>();
  return detail::reduce_extreme(queue, x, false, "xgpu::min").first;
}

/// The largest element of x; as min otherwise (NaN propagates; empty throws).
template <class T>
scalar_t<T> max(Queue& queue, const Buffer<T>& x) {
  detail::require_reduce_type<T>();
  return detail::reduce_extreme(queue, x, true, "xgpu::max").first;
}

/// The index of the smallest element of x, the first of equal ones. Types as for sum. A NaN
/// counts as the most extreme value: the index of the first NaN if there is one. Throws
/// invalid_argument for an empty buffer.
template <class T>
std::size_t argmin(Queue& queue, const Buffer<T>& x) {
  detail::require_reduce_type<T>();
  return detail::reduce_extreme(queue, x, false, "xgpu::argmin").second;
}

/// The index of the largest element of x, the first of equal ones (the first NaN if any).
/// Throws invalid_argument for an empty buffer.
template <class T>
std::size_t argmax(Queue& queue, const Buffer<T>& x) {
  detail::require_reduce_type<T>();
  return detail::reduce_extreme(queue, x, true, "xgpu::argmax").second;
}

/// The sum of x[i] * y[i]; 0 for two empty buffers. Types and wrapping as for sum. Throws
/// invalid_argument (naming both sizes) when x and y differ in size.
/// Accuracy (floating types): |result - exact| <= 41 * u * sum(|x[i] * y[i]|), as for sum.
template <class T>
scalar_t<T> dot(Queue& queue, const Buffer<T>& x, const Buffer<T>& y) {
  detail::require_reduce_type<T>();
  return detail::reduce_dot(queue, x, y);
}

/// The Euclidean norm sqrt(sum(x[i]^2)) of float, double (needs fp64), half or bfloat16
/// (accumulated in float, result float) elements; 0 for an empty buffer. Overflow-safe: x is first
/// scaled by a power of two near 1 / max|x[i]| (exactly), so no square overflows or loses the
/// largest elements to underflow. Two passes over x. Any NaN gives NaN, else any infinity gives
/// infinity. Accuracy: relative error at most 24 * u (half the sum's bound, plus the square root).
template <class T>
scalar_t<T> norm2(Queue& queue, const Buffer<T>& x) {
  static_assert(is_floating_type_v<T>,
                "xgpu::norm2 takes Buffer<T> of float, double, xgpu::half or xgpu::bfloat16");
  return detail::reduce_norm2(queue, x);
}

}  // namespace xgpu
