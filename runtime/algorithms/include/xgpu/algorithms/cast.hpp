// xgpu::cast: converting a buffer between the floating types float, double, half and
// bfloat16 on the device.
#pragma once

#include <xgpu/algorithms/types.hpp>
#include <xgpu/export.hpp>
#include <xgpu/queue.hpp>

namespace xgpu {
namespace detail {
template <class From, class To>
XGPU_ALGORITHMS_API Event cast_impl(Queue& queue, const Buffer<From>& src, const Buffer<To>& dst);
}  // namespace detail

/// dst[i] = src[i] converted to To, for every element, on the device. From and To are float,
/// double (devices with fp64; otherwise Errc::unsupported), xgpu::half or xgpu::bfloat16.
/// - Each result is the source value correctly rounded to To: to nearest, ties to even. A
///   value beyond To's largest finite one becomes +-infinity (to half: |x| >= 65520); a NaN
///   stays a NaN (its sign and payload are not promised); widening (half or bfloat16 to
///   float or double, float to double) is exact. Subnormal results are kept: half and
///   bfloat16 results always (integer arithmetic, or vstore_half_rte), a float result from a
///   double where the device does not flush float subnormals.
/// - A double narrowed to half or bfloat16 is rounded once, from the double (not through
///   float's nearest value, which could round twice).
/// - src and dst must have the same number of elements (otherwise Errc::invalid_argument
///   naming both sizes); 0 elements enqueues nothing and returns an empty Event. More than
///   2^31 - 1 elements is Errc::invalid_argument.
/// - From == To is a device copy (Queue::copy); the same buffer then enqueues nothing. Of two
///   different types, dst must not be src's memory (Errc::invalid_argument).
/// - Returns the Event of the command it enqueued; the queue is in order.
/// Work layout: as the element-wise operations (XGPU_ELEMENTWISE_SHAPE=cpu|gpu overrides the
/// device's): a work-item converts 16 elements as one vector on CPUs, 4 on other devices.
template <class From, class To>
Event cast(Queue& queue, const Buffer<From>& src, const Buffer<To>& dst) {
  static_assert(is_floating_type_v<From> && is_floating_type_v<To>,
                "xgpu::cast converts between Buffer<T> of float, double, xgpu::half and "
                "xgpu::bfloat16");
  return detail::cast_impl(queue, src, dst);
}

}  // namespace xgpu
