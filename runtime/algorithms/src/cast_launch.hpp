// The launch behind xgpu::cast, for the library's own conversions of part of a buffer (the
// converting GEMM engines turn only a matrix's elements to float, not a larger buffer's).
// Shared by cast.cpp and gemm.cpp only.
#pragma once

#include <cstddef>
#include <xgpu/queue.hpp>

namespace xgpu::detail::algo {

/// Enqueues dst[i] = src[i] converted (as xgpu::cast) for i < count, count > 0 and at most
/// both sizes; From and To are different floating types, src and dst different buffers. The
/// caller has checked the types against the device and the count against kMaxElements.
template <class From, class To>
Event launch_cast(Queue& queue, const Buffer<From>& src, const Buffer<To>& dst, std::size_t count);

}  // namespace xgpu::detail::algo
