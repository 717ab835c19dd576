// Matrix transpose through kernels/transpose.cl, laid out by layout_for(XGPU_TRANSPOSE_SHAPE).
// GPU layout: the local-memory tiled kernel (coalesced reads and writes, a padded tile).
// CPU layout: kernels without local memory, which on PoCL ran far faster than the tiled one
// or one element per item: the streaming kernel for matrices larger than the caches, the 8 x 8
// blocks kernel for the others.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <xgpu/algorithms/transpose.hpp>
#include <xgpu/error.hpp>

#include "support.hpp"

namespace xgpu::detail {
namespace {

constexpr const char* kCall = "xgpu::transpose";

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
  const Kernel kernel = algo::typed_kernel<T>(queue, "transpose.cl", "xgpu_transpose_tiled");
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

// The streaming kernel's conditions: 4- or 8-byte elements (16 of them fill whole cache
// lines), rows % 16 == 0 (each tile's stores aligned: a buffer starts on the device's base
// address alignment, at least 128 bytes, long16, in OpenCL's full profile) and a matrix
// larger than the caches.
// 8 MiB: on PoCL (floats, against a device copy of the same bytes) the blocks kernel won
// up to 4 MiB and the streaming kernel from 8 MiB up: non-temporal stores only pay once
// `out` would not stay in the caches anyway.
constexpr std::size_t kStreamingBytes = std::size_t{8} << 20;

template <class T>
bool streaming_fits(std::size_t rows, std::size_t cols) {
  return (sizeof(T) == 4 || sizeof(T) == 8) && rows % 16 == 0 &&
         rows * cols * sizeof(T) >= kStreamingBytes;
}

template <class T>
Event launch_streaming(Queue& queue, const Buffer<T>& in, const Buffer<T>& out, unsigned rows,
                       unsigned cols) {
  const Kernel kernel = algo::typed_kernel<T>(queue, "transpose.cl", "xgpu_transpose_streaming");
  // 16 tiles (256 columns) per item, one item per work-group: on PoCL at 4096 x 4096 floats,
  // 4 to 256 tiles per item and 1 or 4 items per group were within the noise of each other;
  // 16 leaves many items to share out.
  const std::size_t tiles = 16;
  const Range global{algo::ceil_div(cols, 16 * tiles), rows / 16u};
  return queue.launch(kernel, global, Range{1, 1}, rows, cols, static_cast<unsigned>(tiles), in,
                      out);
}

template <class T>
Event launch_blocks(Queue& queue, const Buffer<T>& in, const Buffer<T>& out, unsigned rows,
                    unsigned cols) {
  const Kernel kernel = algo::typed_kernel<T>(queue, "transpose.cl", "xgpu_transpose_blocks");
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
  const std::size_t count = algo::checked_matrix_io(queue, in, out, rows, cols, kCall);
  if (count != 0 && ext::overlap(in, out))
    algo::invalid(kCall,
                  "in and out are the same buffer or overlapping views of one; transposing in "
                  "place is not supported");
  // Read even when there is nothing to move: a bad value is an error at any size.
  const algo::Layout layout =
      algo::layout_for(queue.device().info(), common::Setting::transpose_shape, kCall);
  if (count == 0) return Event();
  const algo::Staged<T> staged_in(queue, in, algo::Use::read);
  const algo::Staged<T> staged_out(queue, out, algo::Use::write);
  const Buffer<T>& from = staged_in.get();
  const Buffer<T>& to = staged_out.get();
  const auto r = static_cast<unsigned>(rows), c = static_cast<unsigned>(cols);
  Event last;
  if (layout == algo::Layout::gpu)
    last = launch_tiled(queue, from, to, r, c);
  else if (streaming_fits<T>(rows, cols))
    last = launch_streaming(queue, from, to, r, c);
  else
    last = launch_blocks(queue, from, to, r, c);
  return staged_out.finish(queue, std::move(last));
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
