// Element-wise operations of the algorithms library: fill, copy, axpy, scale, the four
// arithmetic operations and unary math, enqueued on a Queue.
//
// Common to every function here:
// - Types: float, double (devices with fp64; otherwise Errc::unsupported), std::int32_t,
//   std::uint32_t, xgpu::half and xgpu::bfloat16. The 16-bit types are computed in float and
//   stored rounded to nearest, ties to even; except half on a device with cl_khr_fp16
//   (native_half_arithmetic() says), where fill, axpy, scale, add, sub, mul, div, abs and
//   relu compute in half (see each). Scalars are scalar_t<T>: float for half and bfloat16.
// - Every buffer must have the same number of elements, n; otherwise Errc::invalid_argument
//   naming the call and the buffer. n == 0 enqueues nothing and returns an empty Event.
//   More than 2^31 - 1 elements is Errc::invalid_argument.
// - The result may be written over an input (pass the same buffer): each element is read
//   before it is written.
// - Integer arithmetic wraps modulo 2^32, as the hardware does.
// - They return the Event of the command they enqueued; the queue is in order, so later
//   commands on it see the result.
#pragma once

#include <cstdint>
#include <type_traits>
#include <xgpu/algorithms/types.hpp>
#include <xgpu/export.hpp>
#include <xgpu/queue.hpp>

namespace xgpu {

/// Whether the unary math functions (exp, log, sqrt, sigmoid, tanh) exist for T: the
/// floating types float, double, half and bfloat16.
template <class T>
inline constexpr bool is_floating_algorithm_type_v = is_floating_type_v<T>;

/// Whether the element-wise operations take Buffer<T>: the library's types and bfloat16.
template <class T>
inline constexpr bool is_elementwise_type_v = is_algorithm_type_v<T> || std::is_same_v<T, bfloat16>;

/// Whether fill, axpy, scale, add, sub, mul, div, abs and relu of half compute in half on the
/// queue's device: it reports cl_khr_fp16 (DeviceInfo::fp16). Its compiler must agree (the
/// kernel checks the extension's macro, and computes in float where it is missing, as under
/// a profile that claims fp16 over a device without it). Elsewhere half computes in float.
XGPU_ALGORITHMS_API bool native_half_arithmetic(const Queue& queue);

namespace detail {
// What the public templates below forward to, defined in elementwise.cpp for each type
// (the templates only add the compile-time type checks).
enum class ElementwiseOp { add, sub, mul, div, abs, relu, exp, log, sqrt, sigmoid, tanh };
template <class T>
XGPU_ALGORITHMS_API Event elementwise_fill(Queue& queue, const Buffer<T>& x, scalar_t<T> value);
template <class T>
XGPU_ALGORITHMS_API Event elementwise_copy(Queue& queue, const Buffer<T>& src,
                                           const Buffer<T>& dst);
template <class T>
XGPU_ALGORITHMS_API Event elementwise_axpy(Queue& queue, scalar_t<T> a, const Buffer<T>& x,
                                           const Buffer<T>& y);
template <class T>
XGPU_ALGORITHMS_API Event elementwise_scale(Queue& queue, scalar_t<T> a, const Buffer<T>& x);
template <class T>
XGPU_ALGORITHMS_API Event elementwise_binary(Queue& queue, ElementwiseOp op, const Buffer<T>& a,
                                             const Buffer<T>& b, const Buffer<T>& out);
template <class T>
XGPU_ALGORITHMS_API Event elementwise_unary(Queue& queue, ElementwiseOp op, const Buffer<T>& in,
                                            const Buffer<T>& out);
template <class T>
constexpr void check_elementwise_type() {
  static_assert(is_elementwise_type_v<T>,
                "xgpu element-wise operations take Buffer<T> of float, double, std::int32_t, "
                "std::uint32_t, xgpu::half or xgpu::bfloat16");
}
template <class T>
constexpr void check_math_type() {
  static_assert(is_floating_algorithm_type_v<T>,
                "xgpu exp, log, sqrt, sigmoid and tanh take Buffer<T> of float, double, "
                "xgpu::half or xgpu::bfloat16");
}
}  // namespace detail

/// Sets every element of x to value (for half and bfloat16, value rounded to nearest even).
template <class T>
Event fill(Queue& queue, const Buffer<T>& x, scalar_t<T> value) {
  detail::check_elementwise_type<T>();
  return detail::elementwise_fill(queue, x, value);
}

/// dst = src, bit for bit, as a device copy (Queue::copy). src == dst is a no-op that
/// enqueues nothing and returns an empty Event.
template <class T>
Event copy(Queue& queue, const Buffer<T>& src, const Buffer<T>& dst) {
  detail::check_elementwise_type<T>();
  return detail::elementwise_copy(queue, src, dst);
}

/// y = a * x + y. Floats and doubles fuse the multiply-add (one rounding: the correctly
/// rounded result); half and bfloat16 compute the fused result in float and round it once.
/// Native half (native_half_arithmetic()) is used when a is a half value (2, 0.5, a loss
/// scale up to 2^15...): the fused result in half, correctly rounded, within 1 ulp of half
/// of the float path's (the two differ only where rounding the float result meets a tie).
/// Any other a (65536, 0.1) takes the float path, unrounded. x and y may be the same buffer
/// (y = (a + 1) * y).
template <class T>
Event axpy(Queue& queue, scalar_t<T> a, const Buffer<T>& x, const Buffer<T>& y) {
  detail::check_elementwise_type<T>();
  return detail::elementwise_axpy(queue, a, x, y);
}

/// x = a * x (correctly rounded for float and double; half and bfloat16 round the float
/// product once; native half, used when a is a half value, gives the same correctly rounded
/// result; any other a takes the float path).
template <class T>
Event scale(Queue& queue, scalar_t<T> a, const Buffer<T>& x) {
  detail::check_elementwise_type<T>();
  return detail::elementwise_scale(queue, a, x);
}

/// out = a + b, element by element; out may be a or b. Correctly rounded for every floating
/// type, native half included (for half, float has more than twice its precision, so rounding
/// the float sum, difference or product to half is the correctly rounded result: the two
/// paths agree bit for bit; likewise for sub and mul).
template <class T>
Event add(Queue& queue, const Buffer<T>& a, const Buffer<T>& b, const Buffer<T>& out) {
  detail::check_elementwise_type<T>();
  return detail::elementwise_binary(queue, detail::ElementwiseOp::add, a, b, out);
}
/// out = a - b, element by element; out may be a or b. Correctly rounded for floats.
template <class T>
Event sub(Queue& queue, const Buffer<T>& a, const Buffer<T>& b, const Buffer<T>& out) {
  detail::check_elementwise_type<T>();
  return detail::elementwise_binary(queue, detail::ElementwiseOp::sub, a, b, out);
}
/// out = a * b, element by element; out may be a or b. Correctly rounded for floats.
template <class T>
Event mul(Queue& queue, const Buffer<T>& a, const Buffer<T>& b, const Buffer<T>& out) {
  detail::check_elementwise_type<T>();
  return detail::elementwise_binary(queue, detail::ElementwiseOp::mul, a, b, out);
}
/// out = a / b, element by element; out may be a or b. Integers: truncates toward zero,
/// x / 0 is 0 (defined, never a trap) and INT32_MIN / -1 wraps to INT32_MIN. Floats follow
/// IEEE 754 (x / 0 is +-inf, 0 / 0 NaN); float division is within 2.5 ulp (OpenCL's bound;
/// most devices round correctly), double correctly rounded; half and bfloat16 round the float
/// quotient (native half divides in half): within 1 ulp of half or bfloat16.
template <class T>
Event div(Queue& queue, const Buffer<T>& a, const Buffer<T>& b, const Buffer<T>& out) {
  detail::check_elementwise_type<T>();
  return detail::elementwise_binary(queue, detail::ElementwiseOp::div, a, b, out);
}

/// out = |in|. Floats: fabs (clears the sign, also of NaN). int32: |INT32_MIN| does not
/// fit and wraps to INT32_MIN. uint32: every value is its own absolute value (a copy).
template <class T>
Event abs(Queue& queue, const Buffer<T>& in, const Buffer<T>& out) {
  detail::check_elementwise_type<T>();
  return detail::elementwise_unary(queue, detail::ElementwiseOp::abs, in, out);
}
/// out = in < 0 ? 0 : in. A NaN stays NaN (unlike fmax(x, 0)); uint32 is copied.
template <class T>
Event relu(Queue& queue, const Buffer<T>& in, const Buffer<T>& out) {
  detail::check_elementwise_type<T>();
  return detail::elementwise_unary(queue, detail::ElementwiseOp::relu, in, out);
}

/// out = e^in. Floating types only. Accuracy is the device's exp: within 3 ulp for float
/// (OpenCL's bound), 3 ulp for double; half rounds the float result once.
template <class T>
Event exp(Queue& queue, const Buffer<T>& in, const Buffer<T>& out) {
  detail::check_math_type<T>();
  return detail::elementwise_unary(queue, detail::ElementwiseOp::exp, in, out);
}
/// out = ln(in) (NaN below 0, -inf at 0). Floating types only; within 3 ulp (float,
/// double); half rounds the float result once.
template <class T>
Event log(Queue& queue, const Buffer<T>& in, const Buffer<T>& out) {
  detail::check_math_type<T>();
  return detail::elementwise_unary(queue, detail::ElementwiseOp::log, in, out);
}
/// out = sqrt(in) (NaN below 0). Floating types only; within 3 ulp for float (OpenCL's
/// bound; most devices round correctly), correctly rounded for double; half rounds the
/// float result once.
template <class T>
Event sqrt(Queue& queue, const Buffer<T>& in, const Buffer<T>& out) {
  detail::check_math_type<T>();
  return detail::elementwise_unary(queue, detail::ElementwiseOp::sqrt, in, out);
}
/// out = 1 / (1 + e^-in), the logistic function: 0 at -inf, 1 at +inf. Floating types
/// only; within 7 ulp for float and double (the exp's 3 plus the addition's and the
/// division's roundings); half rounds the float result once.
template <class T>
Event sigmoid(Queue& queue, const Buffer<T>& in, const Buffer<T>& out) {
  detail::check_math_type<T>();
  return detail::elementwise_unary(queue, detail::ElementwiseOp::sigmoid, in, out);
}
/// out = tanh(in). Floating types only; within 5 ulp for float and double (OpenCL's
/// bound), and exactly +-1 from where the result rounds to +-1 (|in| >= 10 for float and
/// half, 20 for double) and at +-inf, even where the device's own tanh is an ulp short;
/// half rounds the float result once.
template <class T>
Event tanh(Queue& queue, const Buffer<T>& in, const Buffer<T>& out) {
  detail::check_math_type<T>();
  return detail::elementwise_unary(queue, detail::ElementwiseOp::tanh, in, out);
}

}  // namespace xgpu
