// Scans (see xgpu/algorithms/scan.hpp and kernels/scan.cl). CPU devices get a single pass, one
// launch that reads the input from memory once, unless the scan is in place; other devices,
// and scans in place, three launches (per-item sums, their exclusive scan in one work-group,
// then each item's scan from its offset), which read it twice. Work-items read long
// contiguous runs, which suits CPU devices. That is the CPU layout; the GPU layout (chosen by
// algo::layout_for, XGPU_SCAN_SHAPE) is three launches over striped tiles.
#include <algorithm>
#include <cstring>
#include <limits>
#include <string>
#include <vector>
#include <xgpu/algorithms/scan.hpp>

#include "for_tests.hpp"
#include "support.hpp"

namespace xgpu::detail {
namespace {

using algo::ceil_div;
using algo::round_up;

/// What the kernels add in: float for half, uint for int32 (wrapping), T otherwise.
template <class T>
using ScanSum =
    std::conditional_t<std::is_same_v<T, half>, float,
                       std::conditional_t<std::is_same_v<T, std::int32_t>, std::uint32_t, T>>;

bool is_cpu(const Device& device) { return ext::is_cpu(device.info()); }

/// Elements per vector: 16 on CPU devices (an AVX-512 register of floats; LLVM splits it on
/// narrower units), 4 elsewhere (16-byte loads per work-item). Oclgrind, which claims every
/// type, gets 4, so the tests check both widths.
std::size_t vector_width(const Device& device) { return is_cpu(device) ? 16 : 4; }

/// The type's build options, the width, and on CPU devices streaming stores (see scan.cl):
/// on PoCL they made the last of the three launches faster, as they do a plain copy kernel
/// (a written line is not read first).
std::string build_options(const char* type_options, const Device& device) {
  return std::string(type_options) + " -DXGPU_W=" + std::to_string(vector_width(device)) +
         (is_cpu(device) ? " -DXGPU_STREAM_STORES" : "");
}

/// The kernels' init argument: the same bits as a uint for int32 (so that init + sums wraps).
template <class T>
ScanSum<T> as_sum(scalar_t<T> value) {
  ScanSum<T> converted;
  static_assert(sizeof converted == sizeof value);
  std::memcpy(&converted, &value, sizeof value);
  return converted;
}

/// A buffer the kernels write before they read it, ready for Oclgrind: its uninitialized-value
/// checker (21.10) keeps the record of a released buffer and gives it, with the old size, to
/// the next buffer at the same place, so that reads past that size look uninitialized. A host
/// write resets the record (and zeroes the buffer, which the single pass needs anyway).
template <class S>
Buffer<S> scratch_buffer(Queue& queue, std::size_t count, bool zeroed) {
  Buffer<S> buffer = queue.context().alloc<S>(count);
  if (ext::is_simulator(queue.device().info()))
    queue.write(buffer, std::vector<S>(count));
  else if (zeroed)
    queue.fill(buffer, S{});
  return buffer;
}

/// Elements per work-item in each tile of the GPU layout: a few share the cost of the
/// group-wide scan of each tile, and a tile of doubles at 256 items stays at 8 KiB.
constexpr std::size_t kTilePerItem = 4;
/// Work-groups per compute unit in the GPU layout: enough to hide each group's barriers.
constexpr std::size_t kGpuGroupsPerUnit = 8;

struct ScanJob {
  std::size_t n = 0, width = 1;
  bool inclusive = true;
  std::string options;

  /// The scan.cl kernel `name`, built with the job's options.
  Kernel kernel(const Queue& queue, const char* name) const {
    return algo::library_kernel(queue, "scan.cl", name, options);
  }
};

template <class T>
Event three_launches(Queue& queue, const Buffer<T>& in, const Buffer<T>& out, scalar_t<T> init,
                     const ScanJob& job, const char* call) {
  using Sum = ScanSum<T>;
  const Kernel partials_kernel = job.kernel(queue, "xgpu_scan_partials");
  const Kernel offsets_kernel = job.kernel(queue, "xgpu_scan_offsets");
  const Kernel apply_kernel = job.kernel(queue, "xgpu_scan_apply");

  // The first and last launches must split the input alike: one work-group size both allow.
  std::size_t work_group =
      algo::work_group_size(apply_kernel, algo::work_group_size(partials_kernel, 256));
  // Each item gets at least a few vectors (64 on a CPU, where an item's start-up and partials
  // cost about as much), so small inputs get fewer groups, and on GPUs and simulators smaller
  // ones too, in powers of two. (CPU devices keep the full size: PoCL compiles a kernel anew
  // for each work-group size, and idle items cost it little.) Large inputs get a few groups
  // per compute unit, which a CPU device balances over its threads.
  const bool cpu = is_cpu(queue.device());
  const std::size_t vectors_per_item = cpu ? 64 : 16;
  const std::size_t wanted_items =
      std::max<std::size_t>(1, ceil_div(ceil_div(job.n, job.width), vectors_per_item));
  if (!cpu)
    while (work_group > 1 && work_group / 2 >= wanted_items) work_group = work_group / 2;
  const std::size_t groups =
      std::min(std::max<std::size_t>(queue.device().info().compute_units, 1) * 4,
               ceil_div(wanted_items, work_group));
  const std::size_t items = groups * work_group;
  const std::size_t chunk = round_up(ceil_div(job.n, items), job.width);
  if (chunk > std::numeric_limits<unsigned>::max())
    algo::invalid(call, std::to_string(job.n) + " elements is too many for one work-item");
  const std::size_t partial_count = items * job.width;

  // One work-group scans the partials: a power of two for the tree, in the local memory the
  // kernel leaves free; elsewhere than on CPUs, small enough that each item has a run of at
  // least 8 partials.
  std::size_t offsets_group = algo::power_of_two_work_group(offsets_kernel, 1024);
  const std::uint64_t free_local = ext::free_local_memory(offsets_kernel, queue.device().info());
  while (offsets_group > 1 &&
         (offsets_group * sizeof(Sum) > free_local || (!cpu && offsets_group * 8 > partial_count)))
    offsets_group /= 2;

  // One partial per item and vector lane. Released here, but OpenCL keeps a buffer alive until
  // the commands using it have run.
  Buffer<Sum> partials = scratch_buffer<Sum>(queue, partial_count, false);
  const unsigned count = static_cast<unsigned>(job.n), per_item = static_cast<unsigned>(chunk);
  queue.launch(partials_kernel, Range{items}, Range{work_group}, count, per_item, in, partials);
  queue.launch(offsets_kernel, Range{offsets_group}, Range{offsets_group},
               static_cast<unsigned>(partial_count), as_sum<T>(init), partials,
               Local<Sum>(offsets_group));
  return queue.launch(apply_kernel, Range{items}, Range{work_group}, count, per_item,
                      unsigned{job.inclusive}, in, out, partials);
}

/// The GPU layout: group sums, their scan, each group's tiles scanned in local memory; all
/// global loads and stores striped (see scan.cl).
template <class T>
Event striped(Queue& queue, const Buffer<T>& in, const Buffer<T>& out, scalar_t<T> init,
              const ScanJob& job) {
  using Sum = ScanSum<T>;
  const Kernel sums_kernel = job.kernel(queue, "xgpu_scan_group_sums_striped");
  const Kernel offsets_kernel = job.kernel(queue, "xgpu_scan_offsets");
  const Kernel apply_kernel = job.kernel(queue, "xgpu_scan_apply_striped");
  const DeviceInfo& info = queue.device().info();

  // The same group size for the sums and the apply: each group's range is whole tiles of it.
  std::size_t group = algo::work_group_size(apply_kernel, algo::work_group_size(sums_kernel, 256));
  const std::uint64_t free_local = std::min(ext::free_local_memory(apply_kernel, info),
                                            ext::free_local_memory(sums_kernel, info));
  while (group > 1 && group * (kTilePerItem + 1) * sizeof(Sum) > free_local) group /= 2;
  const std::size_t tile = group * kTilePerItem;
  const std::size_t tiles = ceil_div(job.n, tile);
  const std::size_t units = std::max<std::uint32_t>(info.compute_units, 1);
  const std::size_t per_group = ceil_div(tiles, std::min(tiles, units * kGpuGroupsPerUnit)) * tile;
  const std::size_t groups = ceil_div(job.n, per_group);

  std::size_t offsets_group = algo::power_of_two_work_group(offsets_kernel, 1024);
  const std::uint64_t offsets_local = ext::free_local_memory(offsets_kernel, info);
  while (offsets_group > 1 &&
         (offsets_group * sizeof(Sum) > offsets_local || offsets_group > groups))
    offsets_group /= 2;

  Buffer<Sum> partials = scratch_buffer<Sum>(queue, groups, false);
  const unsigned count = static_cast<unsigned>(job.n), range = static_cast<unsigned>(per_group);
  const Range global{groups * group}, local{group};
  queue.launch(sums_kernel, global, local, count, range, in, partials, Local<Sum>(group));
  queue.launch(offsets_kernel, Range{offsets_group}, Range{offsets_group},
               static_cast<unsigned>(groups), as_sum<T>(init), partials, Local<Sum>(offsets_group));
  return queue.launch(apply_kernel, global, local, count, range, unsigned{job.inclusive}, in, out,
                      partials, Local<Sum>(tile), Local<Sum>(group));
}

template <class T>
Event single_pass(Queue& queue, const Buffer<T>& in, const Buffer<T>& out, scalar_t<T> init,
                  const ScanJob& job, const char* call) {
  using Sum = ScanSum<T>;
  const Kernel kernel = job.kernel(queue, "xgpu_scan_single_pass");
  // A tile's items run one after another on a CPU thread, so a few are enough; the local
  // memory holds their lane sums.
  std::size_t work_group = algo::work_group_size(kernel, 16);
  const std::uint64_t free_local = ext::free_local_memory(kernel, queue.device().info());
  while (work_group > 1 && (work_group * job.width + 1) * sizeof(Sum) + 4 > free_local)
    work_group /= 2;
  // On a CPU a tile must stay in a core's cache between its two reads: 256 KiB, within the L2
  // of current CPUs; small inputs make one smaller tile. Elsewhere (Oclgrind, in the tests)
  // tiles are as small as can be, one vector per item, so that groups look back far.
  const std::size_t smallest_tile = work_group * job.width;
  const std::size_t tile_elements =
      is_cpu(queue.device()) ? std::min(std::max<std::size_t>(262144 / sizeof(T), smallest_tile),
                                        round_up(job.n, smallest_tile))
                             : smallest_tile;
  const std::size_t chunk = round_up(ceil_div(tile_elements, work_group), job.width);
  if (chunk > std::numeric_limits<unsigned>::max())
    algo::invalid(call, std::to_string(job.n) + " elements is too many for one work-item");
  const std::size_t tiles = ceil_div(job.n, chunk * work_group);

  // status: the next tile, then one flag per tile, all zero; values: an aggregate and a
  // prefix per tile, in 32-bit words.
  constexpr std::size_t words = sizeof(Sum) / sizeof(std::uint32_t);
  Buffer<std::uint32_t> status = scratch_buffer<std::uint32_t>(queue, tiles + 1, true);
  Buffer<std::uint32_t> values = scratch_buffer<std::uint32_t>(queue, 2 * tiles * words, false);
  return queue.launch(kernel, Range{tiles * work_group}, Range{work_group},
                      static_cast<unsigned>(job.n), static_cast<unsigned>(chunk),
                      unsigned{job.inclusive}, as_sum<T>(init), in, out, status, values,
                      Local<Sum>(work_group * job.width + 1), Local<std::uint32_t>(1));
}

// The scan proper, on buffers a kernel takes.
template <class T>
Event scan_job(Queue& queue, const Buffer<T>& in, const Buffer<T>& out, scalar_t<T> init,
               bool inclusive, const char* call, ScanMethod method, bool in_place) {
  ScanJob job;
  job.n = in.size();
  job.width = vector_width(queue.device());
  job.inclusive = inclusive;
  job.options = build_options(algo::Element<T>::options, queue.device()) +
                " -DXGPU_SCAN_TILE_PER_ITEM=" + std::to_string(kTilePerItem);
  // The GPU layout's own way, three launches over striped tiles, unless a test asks for one
  // of the CPU layout's kernels by name.
  const algo::Layout layout =
      algo::layout_for(queue.device().info(), common::Setting::scan_shape, call);
  if (layout == algo::Layout::gpu && method == ScanMethod::automatic)
    return striped(queue, in, out, init, job);
  // The single pass reads other tiles' input (see scan.cl): not while they are overwritten.
  if (method == ScanMethod::automatic)
    method = is_cpu(queue.device()) ? ScanMethod::single_pass : ScanMethod::three_launches;
  if (method == ScanMethod::single_pass && !in_place)
    return single_pass(queue, in, out, init, job, call);
  return three_launches(queue, in, out, init, job, call);
}

}  // namespace

template <class T>
Event scan(Queue& queue, const Buffer<T>& in, const Buffer<T>& out, scalar_t<T> init,
           bool inclusive, const char* call) {
  return scan_by(queue, in, out, init, inclusive, call, ScanMethod::automatic);
}

template <class T>
Event scan_by(Queue& queue, const Buffer<T>& in, const Buffer<T>& out, scalar_t<T> init,
              bool inclusive, const char* call, ScanMethod method) {
  algo::require_type<T>(queue, call);
  if (out.size() != in.size()) algo::size_mismatch(call, "out", out.size(), in.size());
  if (in.empty()) return Event();
  algo::require_uint_size(in.size(), call);
  algo::require_same_or_apart(call, "in", in, "out", out);
  // A scan in place stages its view once, read and written.
  const bool in_place = ext::same_buffer(in, out);
  const algo::Staged<T> staged_in(queue, in, in_place ? algo::Use::read_write : algo::Use::read);
  const algo::Staged<T> staged_out(queue, in_place ? staged_in.get() : out, algo::Use::write);
  const Event last =
      scan_job(queue, staged_in.get(), staged_out.get(), init, inclusive, call, method, in_place);
  return staged_in.finish(queue, staged_out.finish(queue, last));
}

#define XGPU_SCAN_INSTANTIATE(T)                                                           \
  template Event scan<T>(Queue&, const Buffer<T>&, const Buffer<T>&, scalar_t<T>, bool,    \
                         const char*);                                                     \
  template Event scan_by<T>(Queue&, const Buffer<T>&, const Buffer<T>&, scalar_t<T>, bool, \
                            const char*, ScanMethod);
XGPU_SCAN_INSTANTIATE(float)
XGPU_SCAN_INSTANTIATE(double)
XGPU_SCAN_INSTANTIATE(std::int32_t)
XGPU_SCAN_INSTANTIATE(std::uint32_t)
XGPU_SCAN_INSTANTIATE(half)
#undef XGPU_SCAN_INSTANTIATE

}  // namespace xgpu::detail
