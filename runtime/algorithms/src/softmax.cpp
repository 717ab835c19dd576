// Row-wise softmax through kernels/softmax.cl: one work-item per row in the CPU layout and for
// narrow rows, one work-group per row (with a local-memory reduction) for wider rows in the
// GPU layout; layout_for (XGPU_SOFTMAX_SHAPE) chooses the layout.
#include <algorithm>
#include <limits>
#include <xgpu/algorithms/softmax.hpp>
#include <xgpu/error.hpp>

#include "support.hpp"

namespace xgpu::detail {
namespace {

constexpr const char* kCall = "xgpu::softmax_rows";

using algo::Element;

/// Rows up to this wide go one per work-item on GPUs: a work-group per row would leave most
/// of its items idle, and the reduction's barriers would cost more than the row itself.
constexpr std::size_t kNarrowRow = 32;

/// The type the kernels compute in: float for half.
template <class T>
using Compute = std::conditional_t<std::is_same_v<T, double>, double, float>;

/// The per-item kernel reads its row in vectors of this many elements: 16 floats, a 64-byte
/// line, on CPUs (faster than 8 on PoCL); 4 (16 bytes per item) on GPUs.
std::size_t row_vector_width(algo::Layout layout) { return layout == algo::Layout::cpu ? 16 : 4; }

template <class T>
Event launch_per_item(Queue& queue, algo::Layout layout, const Buffer<T>& in, const Buffer<T>& out,
                      unsigned rows, unsigned cols) {
  const Kernel kernel =
      algo::library_kernel(queue, "softmax.cl", "xgpu_softmax_rows_item",
                           std::string(Element<T>::options) +
                               " -DXGPU_SOFTMAX_W=" + std::to_string(row_vector_width(layout)) +
                               (layout == algo::Layout::cpu ? " -DXGPU_SOFTMAX_FOR_CPU" : ""));
  // Few long rows must still spread over every compute unit: at least 4 groups per unit
  // where there are rows enough (256 rows in one group of 256 ran on one of PoCL's threads).
  // Powers of two, so that PoCL, which compiles a kernel per work-group size, sees few sizes.
  const std::size_t units = std::max<std::size_t>(queue.device().info().compute_units, 1);
  const std::size_t rows_per_group = std::max<std::size_t>(1, rows / (4 * units));
  const std::size_t group =
      algo::power_of_two_work_group(kernel, std::min<std::size_t>(256, rows_per_group));
  return queue.launch(kernel, Range{algo::round_up(rows, group)}, Range{group}, rows, cols, in,
                      out);
}

template <class T>
Event launch_per_group(Queue& queue, const Buffer<T>& in, const Buffer<T>& out, unsigned rows,
                       unsigned cols) {
  const Kernel kernel = algo::typed_kernel<T>(queue, "softmax.cl", "xgpu_softmax_rows_group");
  // A power of two for the tree reduction, no larger than the row needs (each item then
  // has at least one element half the time) and no larger than local memory holds.
  std::size_t wanted = 1;
  while (wanted < cols && wanted < 256) wanted *= 2;
  std::size_t group = algo::power_of_two_work_group(kernel, wanted);
  const std::uint64_t available = ext::free_local_memory(kernel, queue.device().info());
  while (group > 1 && group * sizeof(Compute<T>) > available) group /= 2;
  if (group * sizeof(Compute<T>) > available)
    return launch_per_item(queue, algo::Layout::gpu, in, out, rows, cols);
  return queue.launch(kernel, Range{std::size_t{rows} * group}, Range{group}, rows, cols, in, out,
                      Local<Compute<T>>(group));
}

// The softmax proper, on buffers a kernel takes.
template <class T>
Event softmax_job(Queue& queue, const Buffer<T>& in, const Buffer<T>& out, std::size_t rows,
                  std::size_t cols, algo::Layout layout) {
  const auto r = static_cast<unsigned>(rows), c = static_cast<unsigned>(cols);
  // The CPU layout: a work-item per row at every row length. It won at every shape measured
  // on PoCL, from one long row to many short ones, by a wide margin: its work-items loop over
  // whole rows, while a work-group's barriers split every loop of
  // the group kernel. The GPU layout: a work-group per row (its items stride the row
  // together, so a warp's loads coalesce) unless the row is narrow.
  if (layout == algo::Layout::cpu || cols <= kNarrowRow)
    return launch_per_item(queue, layout, in, out, r, c);
  return launch_per_group(queue, in, out, r, c);
}

}  // namespace

template <class T>
Event softmax_matrix_rows(Queue& queue, const Buffer<T>& in, const Buffer<T>& out, std::size_t rows,
                          std::size_t cols) {
  const std::size_t count = algo::checked_matrix_io(queue, in, out, rows, cols, kCall);
  const algo::Layout layout =
      algo::layout_for(queue.device().info(), common::Setting::softmax_shape, kCall);
  if (count == 0) return Event();
  algo::require_same_or_apart(kCall, "in", in, "out", out);
  const algo::Staged<T> staged_in(queue, in, algo::Use::read);
  const algo::Staged<T> staged_out(queue, out, algo::Use::write);
  return staged_out.finish(
      queue, softmax_job(queue, staged_in.get(), staged_out.get(), rows, cols, layout));
}

template Event softmax_matrix_rows<float>(Queue&, const Buffer<float>&, const Buffer<float>&,
                                          std::size_t, std::size_t);
template Event softmax_matrix_rows<double>(Queue&, const Buffer<double>&, const Buffer<double>&,
                                           std::size_t, std::size_t);
template Event softmax_matrix_rows<half>(Queue&, const Buffer<half>&, const Buffer<half>&,
                                         std::size_t, std::size_t);

}  // namespace xgpu::detail
