// Row-wise softmax of the algorithms library.
#pragma once

#include <cstddef>
#include <type_traits>
#include <xgpu/algorithms/types.hpp>
#include <xgpu/export.hpp>
#include <xgpu/queue.hpp>

namespace xgpu {

namespace detail {
template <class T>
XGPU_ALGORITHMS_API Event softmax_matrix_rows(Queue& queue, const Buffer<T>& in,
                                              const Buffer<T>& out, std::size_t rows,
                                              std::size_t cols);
}  // namespace detail

/// For `in`, a rows x cols row-major matrix, writes to `out` (same shape) each row's softmax:
/// out[r][c] = exp(in[r][c] - m) / sum_k exp(in[r][k] - m), with m the row's maximum, so
/// large magnitudes (1000, -1000) neither overflow nor give NaN. An entry equal to the
/// maximum counts as exp(0) = 1 even when infinite: a row of -inf (or with several +inf)
/// shares 1 equally among its maximal entries; only a NaN in a row makes that row NaN.
/// Types: float, double (devices with fp64; otherwise Errc::unsupported) and xgpu::half
/// (computed in float, rounded once). Accuracy: each result within about
/// (2 log2(cols) + |in - m| + 16) * epsilon relative of the exact value (the exp's few ulp
/// and the rounding of its argument, a compensated row sum combined in a tree of at most
/// log2(cols) levels, the division); rows sum to 1 within that bound. out may be in (in
/// place).
/// Errors (Errc::invalid_argument): a buffer with fewer than rows * cols elements, or
/// rows * cols above 2^31 - 1. rows == 0 or cols == 0 enqueues nothing and returns an
/// empty Event; otherwise the Event of the launch.
template <class T>
Event softmax_rows(Queue& queue, const Buffer<T>& in, const Buffer<T>& out, std::size_t rows,
                   std::size_t cols) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double> || std::is_same_v<T, half>,
                "xgpu::softmax_rows takes Buffer<T> of float, double or xgpu::half");
  return detail::softmax_matrix_rows(queue, in, out, rows, cols);
}

}  // namespace xgpu
