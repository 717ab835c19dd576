// Matrix transpose of the algorithms library.
#pragma once

#include <cstddef>
#include <xgpu/algorithms/types.hpp>
#include <xgpu/export.hpp>
#include <xgpu/queue.hpp>

namespace xgpu {

namespace detail {
template <class T>
XGPU_ALGORITHMS_API Event transpose_matrix(Queue& queue, const Buffer<T>& in, const Buffer<T>& out,
                                           std::size_t rows, std::size_t cols);
}  // namespace detail

/// Writes the transpose of `in`, a rows x cols row-major matrix, to `out` as a cols x rows
/// row-major matrix: out[c * rows + r] = in[r * cols + c]. Types: float, double (devices
/// with fp64; otherwise Errc::unsupported), std::int32_t, std::uint32_t, xgpu::half;
/// elements are moved bit for bit. Errors (Errc::invalid_argument): a buffer with fewer
/// than rows * cols elements (larger ones are fine: the rest is neither read nor written),
/// rows * cols above 2^31 - 1, or in and out being the same buffer (not done in place).
/// rows == 0 or cols == 0 enqueues nothing and returns an empty Event; otherwise the
/// Event of the launch.
template <class T>
Event transpose(Queue& queue, const Buffer<T>& in, const Buffer<T>& out, std::size_t rows,
                std::size_t cols) {
  static_assert(is_algorithm_type_v<T>,
                "xgpu::transpose takes Buffer<T> of float, double, std::int32_t, std::uint32_t "
                "or xgpu::half");
  return detail::transpose_matrix(queue, in, out, rows, cols);
}

}  // namespace xgpu
