// xgpu::sort and xgpu::sort_by_key: the host side of the LSD radix sort of kernels/sort.cl.
// Every key type is sorted as raw 32-bit words; only the digit's image of the key differs.
// Two layouts, chosen by algo::layout_for (XGPU_SORT_SHAPE): on CPUs each work-item owns a
// contiguous chunk; on GPUs each work-group owns a range of tiles its items stripe across.
#include "xgpu/algorithms/sort.hpp"

#include <algorithm>
#include <string>

#include "for_tests.hpp"
#include "support.hpp"
#include "xgpu/error.hpp"

namespace xgpu {
namespace detail {
namespace {

using Bits = Buffer<std::uint32_t>;

// 4 passes of 256 buckets: a bucket's counter per work-item still fits local memory, and 4
// passes beat 8 passes of 4 bits in memory traffic. 3 passes of 11 bits (2048 buckets) read
// and write a quarter less but scatter each item's keys over 8x as many places: on PoCL
// (random keys, the two interleaved) they were slower than 8 bits.
constexpr unsigned kDigitBits = 8;
constexpr std::size_t kRadix = std::size_t{1} << kDigitBits;
constexpr std::size_t kPasses = (32 + kDigitBits - 1) / kDigitBits;
// state[]: OR and AND of the keys' images, then the source buffer of each pass and of the
// result (see sort.cl).
constexpr std::size_t kStateWords = 2 + kPasses + 1;
// Work-groups per compute unit: a few, so that a unit that finishes early finds more.
constexpr std::size_t kGroupsPerUnit = 4;
// Each work-item zeroes, stores, scans and reloads kRadix counters per pass and writes the
// last, partial cache line of each digit one word at a time: below several thousand keys
// per item that overhead outweighs the sorting, so small inputs get fewer items.
constexpr std::size_t kMinKeysPerItem = 32 * kRadix;
// uints per cache line in the CPU scatter's line buffers (XGPU_SORT_LINE in sort.cl).
constexpr std::size_t kLineWords = 16;

/// How the kernels turn a key's bits into an unsigned image with the key's order.
struct KeyImage {
  std::uint32_t flip_sign = 0;      // int and float: the sign bit
  std::uint32_t flip_negative = 0;  // float: the other bits, for negative values
};

template <class K>
KeyImage key_image() {
  if constexpr (std::is_same_v<K, std::int32_t>) return {0x80000000u, 0};
  if constexpr (std::is_same_v<K, float>) return {0x80000000u, 0x7fffffffu};
  return {};
}

/// The same memory seen as 32-bit words: the kernels move keys and values as raw bits.
template <class T>
Bits as_bits(const Buffer<T>& buffer) {
  static_assert(sizeof(T) == sizeof(std::uint32_t));
  return ext::reinterpret<std::uint32_t>(buffer);
}

/// Keys per work-item in each tile of the GPU layout: each tile costs XGPU_SORT_BITS splits
/// with a group-wide scan each, so a few keys per item share that cost, while two tiles of
/// keys and two of values still fit 32 KiB of local memory at 256 items (16 KiB).
constexpr std::size_t kTilePerItem = 4;
/// Work-groups per compute unit in the GPU layout: enough to hide each group's barriers.
constexpr std::size_t kGpuGroupsPerUnit = 8;

struct SortKernels {
  Kernel init, histogram, scan, scatter, copy_back;
};

SortKernels sort_kernels(const Queue& queue, bool with_values, algo::Layout layout) {
  const std::string options = "-DXGPU_SORT_BITS=" + std::to_string(kDigitBits) +
                              " -DXGPU_SORT_TILE_PER_ITEM=" + std::to_string(kTilePerItem);
  const bool gpu = layout == algo::Layout::gpu;
  auto get = [&](const std::string& name) {
    return algo::library_kernel(queue, "sort.cl", (gpu ? name + "_striped" : name).c_str(),
                                options);
  };
  return {algo::library_kernel(queue, "sort.cl", "xgpu_sort_init", options),
          get("xgpu_sort_histogram"),
          algo::library_kernel(queue, "sort.cl", "xgpu_sort_scan", options),
          get(with_values ? "xgpu_sort_scatter_pairs" : "xgpu_sort_scatter_keys"),
          get("xgpu_sort_copy_back")};
}

algo::Layout sort_layout(const Queue& queue, const char* call) {
  return algo::layout_for(queue.device().info(), common::Setting::sort_shape, call);
}

/// Checks that one work-item's counters fit the histogram's and the scatter's local memory
/// (kRadix and 2 * kRadix uints).
void require_item_counters(const Queue& queue, const SortKernels& kernels, const char* call) {
  const DeviceInfo& info = queue.device().info();
  const std::uint64_t per_item = 2 * kRadix * sizeof(std::uint32_t);
  if (std::min(ext::free_local_memory(kernels.histogram, info),
               ext::free_local_memory(kernels.scatter, info)) < per_item)
    throw Error(Errc::unsupported,
                std::string(call) + " needs " + std::to_string(per_item) +
                    " bytes of local memory per work-item; " + queue.device().describe() + " has " +
                    std::to_string(info.local_memory),
                call);
}

/// How the n keys are shared out. CPU layout: `groups` work-groups of `group` items, each item
/// owning a chunk of about n / (groups * group) keys. GPU layout: each group owns
/// `per_group` keys (whole tiles of group * kTilePerItem keys).
struct Split {
  std::size_t groups, group, per_group = 0;
};

Split cpu_split(const Queue& queue, const SortKernels& kernels, std::size_t n, const char* call) {
  // One item per group: on CPU devices a group's items run in turn on one core, so more
  // items per group only add counters to scan, line buffers and partial lines to write. No
  // more items than give each kMinKeysPerItem keys; as many as keep every compute unit busy.
  require_item_counters(queue, kernels, call);
  const std::size_t wanted = std::max<std::size_t>(algo::ceil_div(n, kMinKeysPerItem), 1);
  const std::size_t units = std::max<std::uint32_t>(queue.device().info().compute_units, 1);
  return {std::min(wanted, units * kGroupsPerUnit), 1};
}

/// Local memory of the GPU layout's scatter per work-group of `group` items, in uints: two
/// tiles of keys, two of values (one uint without), the next slot and the run start of each
/// digit, one word per item for the group's scans.
std::size_t striped_scatter_words(std::size_t group, bool with_values) {
  const std::size_t tile = group * kTilePerItem;
  return 2 * tile + (with_values ? 2 * tile : 1) + 2 * kRadix + group;
}

std::size_t gpu_group_items(const Queue& queue, const SortKernels& kernels, bool with_values,
                            const char* call) {
  const DeviceInfo& info = queue.device().info();
  std::size_t group = std::min(algo::work_group_size(kernels.histogram, 256),
                               algo::work_group_size(kernels.scatter, 256));
  const std::uint64_t free_local = ext::free_local_memory(kernels.scatter, info);
  while (group > 1 &&
         striped_scatter_words(group, with_values) * sizeof(std::uint32_t) > free_local)
    group /= 2;
  const std::size_t needed = striped_scatter_words(group, with_values) * sizeof(std::uint32_t);
  if (needed > free_local)
    throw Error(Errc::unsupported,
                std::string(call) + " needs " + std::to_string(needed) +
                    " bytes of local memory per work-group; " + queue.device().describe() +
                    " has " + std::to_string(info.local_memory),
                call);
  return group;
}

/// GPU layout: tiles of group * kTilePerItem keys, shared in whole tiles among a few groups
/// per compute unit (each group walks its tiles in order, which keeps the pass stable).
Split gpu_split(const Queue& queue, const SortKernels& kernels, std::size_t n, bool with_values,
                const char* call) {
  const std::size_t group = gpu_group_items(queue, kernels, with_values, call);
  const std::size_t tile = group * kTilePerItem;
  const std::size_t tiles = algo::ceil_div(n, tile);
  const std::size_t units = std::max<std::uint32_t>(queue.device().info().compute_units, 1);
  const std::size_t wanted_groups = std::min(tiles, units * kGpuGroupsPerUnit);
  const std::size_t per_group = algo::ceil_div(tiles, wanted_groups) * tile;
  return {algo::ceil_div(n, per_group), group, per_group};
}

/// The passes of the GPU layout and the copy home (see sort.cl's striped kernels).
Event striped_passes(Queue& queue, const SortKernels& kernels, const Split& split, const Bits& keys,
                     const Bits& scratch, const Bits* values, const Bits& values_scratch,
                     const Bits& counts, const Bits& state, KeyImage image) {
  const unsigned count = static_cast<unsigned>(keys.size());
  const unsigned groups = static_cast<unsigned>(split.groups);
  const unsigned per_group = static_cast<unsigned>(split.per_group);
  const Range global{split.groups * split.group}, local{split.group};
  const std::size_t scan_group = algo::work_group_size(kernels.scan, kRadix);
  const std::size_t tile = split.group * kTilePerItem;
  const Local<unsigned> tile_keys(2 * tile), tile_values(values ? 2 * tile : 1),
      digit_words(kRadix), item_words(split.group);
  for (unsigned pass = 0; pass < kPasses; ++pass) {
    queue.launch(kernels.histogram, global, local, count, pass, image.flip_sign,
                 image.flip_negative, keys, scratch, counts, state, per_group,
                 Local<unsigned>(kRadix + 2));
    queue.launch(kernels.scan, Range{scan_group}, Range{scan_group}, pass, groups, counts, state,
                 Local<unsigned>(kRadix));
    if (values)
      queue.launch(kernels.scatter, global, local, count, pass, image.flip_sign,
                   image.flip_negative, keys, scratch, *values, values_scratch, counts, state,
                   per_group, tile_keys, tile_values, digit_words, digit_words, item_words);
    else
      queue.launch(kernels.scatter, global, local, count, pass, image.flip_sign,
                   image.flip_negative, keys, scratch, counts, state, per_group, tile_keys,
                   tile_values, digit_words, digit_words, item_words);
  }
  Event last = queue.launch(kernels.copy_back, global, local, count, keys, scratch, state);
  if (values)
    last = queue.launch(kernels.copy_back, global, local, count, *values, values_scratch, state);
  return last;
}

Event radix_sort(Queue& queue, const Bits& keys, const Bits* values, KeyImage image,
                 const char* call) {
  const std::size_t n = keys.size();
  const algo::Layout layout = sort_layout(queue, call);
  const bool gpu = layout == algo::Layout::gpu;
  const SortKernels kernels = sort_kernels(queue, values != nullptr, layout);
  const Split split = gpu ? gpu_split(queue, kernels, n, values != nullptr, call)
                          : cpu_split(queue, kernels, n, call);
  const std::size_t groups = split.groups, group = split.group;
  const std::size_t items = groups * group;
  const std::size_t scan_group = algo::work_group_size(kernels.scan, kRadix);

  const Context& context = queue.context();
  const Bits scratch = context.alloc<std::uint32_t>(n);
  const Bits values_scratch = context.alloc<std::uint32_t>(values ? n : 0);
  // One column of digit counts per item (CPU layout) or per group (GPU layout).
  const Bits counts = context.alloc<std::uint32_t>(kRadix * (gpu ? groups : items));
  const Bits state = context.alloc<std::uint32_t>(kStateWords);
  // A kernel rather than fills: Oclgrind 21.10's uninitialized-memory check does not count a
  // fill as initializing the buffer (its later reads were reported).
  queue.launch(kernels.init, Range{1}, Range{1}, state);

  if (gpu)
    return striped_passes(queue, kernels, split, keys, scratch, values, values_scratch, counts,
                          state, image);
  const unsigned count = static_cast<unsigned>(n), item_count = static_cast<unsigned>(items);
  const Range global{items}, local{group};
  const Local<unsigned> counters(kRadix * group), offsets(2 * kRadix * group);
  // The scatter's cache-line buffers: a line per digit per item, for keys and for values.
  const Bits lines = context.alloc<std::uint32_t>(items * kRadix * kLineWords * (values ? 2 : 1));
  for (unsigned pass = 0; pass < kPasses; ++pass) {
    queue.launch(kernels.histogram, global, local, count, pass, image.flip_sign,
                 image.flip_negative, keys, scratch, counts, state, counters);
    queue.launch(kernels.scan, Range{scan_group}, Range{scan_group}, pass, item_count, counts,
                 state, Local<unsigned>(kRadix));
    if (values)
      queue.launch(kernels.scatter, global, local, count, pass, image.flip_sign,
                   image.flip_negative, keys, scratch, *values, values_scratch, counts, state,
                   lines, offsets);
    else
      queue.launch(kernels.scatter, global, local, count, pass, image.flip_sign,
                   image.flip_negative, keys, scratch, counts, state, lines, offsets);
  }
  Event last = queue.launch(kernels.copy_back, global, local, count, keys, scratch, state);
  if (values)
    last = queue.launch(kernels.copy_back, global, local, count, *values, values_scratch, state);
  return last;
}

void check_queue_and_size(const Queue& queue, std::size_t n, const char* call) {
  algo::require_queue(queue, call);
  algo::require_uint_size(n, call);
}

}  // namespace

std::size_t sort_work_group_size(const Queue& queue) {
  const char* call = "xgpu::detail::sort_work_group_size";
  algo::require_queue(queue, call);
  const algo::Layout layout = sort_layout(queue, call);
  const SortKernels kernels = sort_kernels(queue, false, layout);
  if (layout == algo::Layout::gpu) return gpu_group_items(queue, kernels, false, call);
  require_item_counters(queue, kernels, call);
  return 1;
}

template <class K>
Event sort_keys(Queue& queue, const Buffer<K>& keys) {
  const char* call = "xgpu::sort";
  check_queue_and_size(queue, keys.size(), call);
  if (keys.size() < 2) return Event();
  const algo::Staged<K> staged(queue, keys, algo::Use::read_write);
  const Bits key_bits = as_bits(staged.get());
  return staged.finish(queue, radix_sort(queue, key_bits, nullptr, key_image<K>(), call));
}

template <class K, class V>
Event sort_pairs(Queue& queue, const Buffer<K>& keys, const Buffer<V>& values) {
  const char* call = "xgpu::sort_by_key";
  check_queue_and_size(queue, keys.size(), call);
  if (values.size() != keys.size()) algo::size_mismatch(call, "values", values.size(), keys.size());
  if (keys.size() < 2) return Event();
  algo::require_same_or_apart(call, "keys", keys, "values", values);
  const algo::Staged<K> staged_keys(queue, keys, algo::Use::read_write);
  const algo::Staged<V> staged_values(queue, values, algo::Use::read_write);
  const Bits key_bits = as_bits(staged_keys.get()), value_bits = as_bits(staged_values.get());
  const Event last = radix_sort(queue, key_bits, &value_bits, key_image<K>(), call);
  return staged_values.finish(queue, staged_keys.finish(queue, last));
}

template Event sort_keys(Queue&, const Buffer<std::uint32_t>&);
template Event sort_keys(Queue&, const Buffer<std::int32_t>&);
template Event sort_keys(Queue&, const Buffer<float>&);

#define XGPU_SORT_PAIRS(K)                                                           \
  template Event sort_pairs(Queue&, const Buffer<K>&, const Buffer<std::uint32_t>&); \
  template Event sort_pairs(Queue&, const Buffer<K>&, const Buffer<std::int32_t>&);  \
  template Event sort_pairs(Queue&, const Buffer<K>&, const Buffer<float>&);
XGPU_SORT_PAIRS(std::uint32_t)
XGPU_SORT_PAIRS(std::int32_t)
XGPU_SORT_PAIRS(float)
#undef XGPU_SORT_PAIRS

}  // namespace detail
}  // namespace xgpu
