// Sorting on the device: xgpu::sort (keys) and xgpu::sort_by_key (keys carrying values),
// ascending and in place, by a stable LSD radix sort.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <xgpu/export.hpp>
#include <xgpu/queue.hpp>

namespace xgpu {

/// Whether xgpu::sort and xgpu::sort_by_key take keys (or values) of type T:
/// std::uint32_t, std::int32_t and float.
template <class T>
inline constexpr bool is_sort_type_v =
    std::is_same_v<T, std::uint32_t> || std::is_same_v<T, std::int32_t> || std::is_same_v<T, float>;

namespace detail {
template <class K>
XGPU_ALGORITHMS_API Event sort_keys(Queue& queue, const Buffer<K>& keys);
template <class K, class V>
XGPU_ALGORITHMS_API Event sort_pairs(Queue& queue, const Buffer<K>& keys, const Buffer<V>& values);
}  // namespace detail

/// Sorts `keys` in ascending order, in place, on the queue's device, and returns the Event
/// of the last command (the call does not wait). K is std::uint32_t, std::int32_t or float.
/// Floats are ordered by IEEE 754 totalOrder, through their bits (negative values have all
/// bits flipped, others only the sign bit): -NaN < -inf < ... < -0.0 < +0.0 < ... < +inf <
/// +NaN, so NaNs are sorted rather than scattered and -0.0 comes before +0.0; the values
/// themselves are moved bit for bit. The sort is stable (an LSD radix sort, 8 bits per pass,
/// passes whose digit is the same for every key skipped). Each call allocates scratch memory
/// on the device: a buffer as large as keys (and one as large as values for sort_by_key)
/// plus 1 KiB of counters per work-item, and on CPU devices 16 KiB of line buffers per
/// work-item (32 KiB for sort_by_key; at most 4 work-items per compute unit). 0 or 1 keys
/// enqueue nothing and return an empty Event. Throws xgpu::Error: invalid_handle for an empty
/// queue, invalid_argument for more than 2^31 - 1 keys, the allocation errors of
/// Context::alloc when the scratch memory does not fit, unsupported on a device whose kernels
/// cannot have 2 KiB of local memory per work-item (the CPU layout's counters) or the
/// local memory of a one-item group's tiles (the GPU layout's scatter, about 2.1 KiB).
template <class K>
Event sort(Queue& queue, const Buffer<K>& keys) {
  static_assert(is_sort_type_v<K>, "xgpu::sort takes std::uint32_t, std::int32_t or float keys");
  return detail::sort_keys(queue, keys);
}

/// Sorts `keys` ascending in place and applies the same permutation to `values`: the value
/// at values[i] travels with keys[i]. Stable: values of equal keys keep their order. K and
/// V are each std::uint32_t, std::int32_t or float; keys order as in xgpu::sort, values are
/// moved bit for bit. Returns the Event of the last command; 0 or 1 elements enqueue
/// nothing. Throws xgpu::Error invalid_argument when values and keys differ in size, and
/// the errors of xgpu::sort.
template <class K, class V>
Event sort_by_key(Queue& queue, const Buffer<K>& keys, const Buffer<V>& values) {
  static_assert(is_sort_type_v<K>,
                "xgpu::sort_by_key takes std::uint32_t, std::int32_t or float keys");
  static_assert(is_sort_type_v<V>,
                "xgpu::sort_by_key takes std::uint32_t, std::int32_t or float values");
  return detail::sort_pairs(queue, keys, values);
}

}  // namespace xgpu
