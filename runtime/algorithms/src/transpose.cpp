// Matrix transpose through kernels/transpose.cl. GPUs get the local-memory tiled kernel;
// CPUs the blocked one without local memory: on PoCL (4096 x 4096 floats, 2 cores) it ran
// at about half the speed of a device copy, the tiled kernel at 0.06-0.13x of it and a
// one-element-per-item kernel at about 0.25x.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <xgpu/algorithms/transpose.hpp>
#include <xgpu/error.hpp>

#include "support.hpp"

namespace xgpu::detail {
namespace {

using algo::Element;

/// The type the kernels move elements as (its OpenCL name must match the kernel's local
/// scratch): half travels as its 16 bits.
template <class T>
using Bits = std::conditional_t<std::is_same_v<T, half>, std::uint16_t, T>;

/// The largest power of two <= n (n >= 1).
std::size_t floor_power_of_two(std::size_t n) {
  std::size_t power = 1;
  while (power * 2 <= n) power *= 2;
  return power;
}

template <class T>
Event launch_tiled(Queue& queue, const Buffer<T>& in, const Buffer<T>& out, unsigned rows,
                   unsigned cols) {
  const Kernel kernel =
      algo::library_kernel(queue, "transpose.cl", "xgpu_transpose_tiled", Element<T>::options);
  const DeviceInfo& device = queue.device().info();
  // 256 items: enough to hide latency on GPUs while leaving room for several work-groups.
  const std::size_t items = algo::work_group_size(kernel, 256);
  // The tile's width is the work-group's first dimension. A multiple of the preferred
  // multiple (the SIMD width) keeps global reads and writes whole; beyond 64 nothing is
  // gained but local memory.
  std::size_t tile =
      floor_power_of_two(std::clamp<std::size_t>(kernel.limits().preferred_multiple, 16, 64));
  tile = std::min(tile, floor_power_of_two(std::max<std::size_t>(items, 1)));
  if (device.max_work_item_sizes[0] > 0) tile = std::min(tile, device.max_work_item_sizes[0]);
  // The scratch (tile x (tile + 1) elements) must fit next to what the kernel declares itself.
  const std::uint64_t available = ext::free_local_memory(kernel, device);
  while (tile > 1 && tile * (tile + 1) * sizeof(T) > available) tile /= 2;
  if (tile * (tile + 1) * sizeof(T) > available)
    throw Error(Errc::unsupported,
                "xgpu::transpose needs " + std::to_string(2 * sizeof(T)) +
                    " bytes of local memory, which " + queue.device().describe() + " lacks",
                "xgpu::transpose");
  // Rows of the tile moved per pass: as many as the work-group allows, at most the tile.
  std::size_t passes = std::clamp<std::size_t>(items / tile, 1, tile);
  if (device.max_work_item_sizes[1] > 0) passes = std::min(passes, device.max_work_item_sizes[1]);
  const Range global{algo::round_up(cols, tile), algo::ceil_div(rows, tile) * passes};
  return queue.launch(kernel, global, Range{tile, passes}, rows, cols, in, out,
                      Local<Bits<T>>(tile * (tile + 1)));
}

template <class T>
Event launch_blocks(Queue& queue, const Buffer<T>& in, const Buffer<T>& out, unsigned rows,
                    unsigned cols) {
  const Kernel kernel =
      algo::library_kernel(queue, "transpose.cl", "xgpu_transpose_blocks", Element<T>::options);
  // Measured on PoCL (4096 x 4096 floats, 2 cores): 8 to 64 blocks per item and 1 to 16
  // items per work-group all ran within the machine's noise of each other (except 8 blocks
  // with 1 item, slower); 32 blocks (256 rows) and 4 items (32 columns) were among the
  // fastest. Short matrices get fewer blocks, so that no item runs idle loops.
  const std::size_t group = algo::work_group_size(kernel, 4);
  const std::size_t blocks = std::min<std::size_t>(32, algo::ceil_div(rows, 8));
  const Range global{algo::round_up(algo::ceil_div(cols, 8), group),
                     algo::ceil_div(rows, 8 * blocks)};
  return queue.launch(kernel, global, Range{group, 1}, rows, cols, static_cast<unsigned>(blocks),
                      in, out);
}

}  // namespace

template <class T>
Event transpose_matrix(Queue& queue, const Buffer<T>& in, const Buffer<T>& out, std::size_t rows,
                       std::size_t cols) {
  const char* call = "xgpu::transpose";
  const std::size_t count = algo::checked_matrix_io(queue, in, out, rows, cols, call);
  if (count != 0 && ext::same_buffer(in, out))
    algo::invalid(call, "in and out are the same buffer; transposing in place is not supported");
  if (count == 0) return Event();
  const auto r = static_cast<unsigned>(rows), c = static_cast<unsigned>(cols);
  if (ext::is_cpu(queue.device().info())) return launch_blocks(queue, in, out, r, c);
  return launch_tiled(queue, in, out, r, c);
}

template Event transpose_matrix<float>(Queue&, const Buffer<float>&, const Buffer<float>&,
                                       std::size_t, std::size_t);
template Event transpose_matrix<double>(Queue&, const Buffer<double>&, const Buffer<double>&,
                                        std::size_t, std::size_t);
template Event transpose_matrix<std::int32_t>(Queue&, const Buffer<std::int32_t>&,
                                              const Buffer<std::int32_t>&, std::size_t,
                                              std::size_t);
template Event transpose_matrix<std::uint32_t>(Queue&, const Buffer<std::uint32_t>&,
                                               const Buffer<std::uint32_t>&, std::size_t,
                                               std::size_t);
template Event transpose_matrix<half>(Queue&, const Buffer<half>&, const Buffer<half>&, std::size_t,
                                      std::size_t);

}  // namespace xgpu::detail
