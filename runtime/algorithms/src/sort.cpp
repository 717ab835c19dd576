// xgpu::sort and xgpu::sort_by_key: the host side of the LSD radix sort of kernels/sort.cl.
// Every key type is sorted as raw 32-bit words; only the digit's image of the key differs.
#include "xgpu/algorithms/sort.hpp"

#include <algorithm>
#include <string>

#include "support.hpp"
#include "xgpu/error.hpp"

namespace xgpu {
namespace detail {
namespace {

using Bits = Buffer<std::uint32_t>;

constexpr unsigned kDigitBits = 8;  // 4 passes of 256 buckets: a bucket's counter per
                                    // work-item still fits local memory, and 4 passes beat
                                    // 8 passes of 4 bits in memory traffic
constexpr std::size_t kRadix = std::size_t{1} << kDigitBits;
constexpr std::size_t kPasses = (32 + kDigitBits - 1) / kDigitBits;
// state[]: OR and AND of the keys' images, then the source buffer of each pass and of the
// result (see sort.cl).
constexpr std::size_t kStateWords = 2 + kPasses + 1;
// Work-groups per compute unit: a few, so that a unit that finishes early finds more.
constexpr std::size_t kGroupsPerUnit = 4;
// Each work-item zeroes, stores, scans and reloads kRadix counters per pass: below a few
// hundred keys per item that overhead outweighs the sorting, so small inputs get fewer items.
constexpr std::size_t kMinKeysPerItem = 2 * kRadix;
// Work-items per group at most. On CPU devices a group's items run in turn on one core, so
// more items only add counters to scan and shorten each item's runs of writes (on PoCL here,
// 16M keys took about 5% more CPU time with 256 than with 8 to 64).
constexpr std::size_t kMaxGroupItems = 64;

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

struct SortKernels {
  Kernel init, histogram, scan, scatter, copy_back;
};

SortKernels sort_kernels(const Queue& queue, bool with_values) {
  const std::string options = "-DXGPU_SORT_BITS=" + std::to_string(kDigitBits);
  auto get = [&](const char* name) {
    return algo::library_kernel(queue, "sort.cl", name, options);
  };
  return {get("xgpu_sort_init"), get("xgpu_sort_histogram"), get("xgpu_sort_scan"),
          get(with_values ? "xgpu_sort_scatter_pairs" : "xgpu_sort_scatter_keys"),
          get("xgpu_sort_copy_back")};
}

/// The most work-items per group of the histogram and scatter kernels, which keep kRadix
/// counters per item in local memory: bounded by the kernels' limits and the device's local
/// memory.
std::size_t max_group_items(const Queue& queue, const SortKernels& kernels, const char* call) {
  const DeviceInfo& info = queue.device().info();
  const std::uint64_t free_local = std::min(ext::free_local_memory(kernels.histogram, info),
                                            ext::free_local_memory(kernels.scatter, info));
  const std::uint64_t per_item = kRadix * sizeof(std::uint32_t);
  const std::uint64_t fit = free_local / per_item;
  if (fit == 0)
    throw Error(Errc::unsupported,
                std::string(call) + " needs " + std::to_string(per_item) +
                    " bytes of local memory per work-item; " + queue.device().describe() + " has " +
                    std::to_string(info.local_memory),
                call);
  return static_cast<std::size_t>(std::min<std::uint64_t>(fit, kMaxGroupItems));
}

/// How the n keys are shared out: `groups` work-groups of `group` items, each item owning a
/// chunk of about n / (groups * group) keys.
struct Layout {
  std::size_t groups, group;
};

Layout layout_for(const Queue& queue, const SortKernels& kernels, std::size_t n, const char* call) {
  // No more items than give each kMinKeysPerItem keys; as many groups as keep every compute
  // unit busy; only as many items per group as the keys need, rounded up to a power of two
  // so that few distinct work-group sizes occur (PoCL compiles a kernel once per size).
  const std::size_t wanted = std::max<std::size_t>(algo::ceil_div(n, kMinKeysPerItem), 1);
  const std::size_t units = std::max<std::uint32_t>(queue.device().info().compute_units, 1);
  const std::size_t groups = std::min(wanted, units * kGroupsPerUnit);
  std::size_t needed = 1;
  while (needed < algo::ceil_div(wanted, groups)) needed *= 2;
  const std::size_t at_most = std::min(max_group_items(queue, kernels, call), needed);
  return {groups, std::min(algo::work_group_size(kernels.histogram, at_most),
                           algo::work_group_size(kernels.scatter, at_most))};
}

Event radix_sort(Queue& queue, const Bits& keys, const Bits* values, KeyImage image,
                 const char* call) {
  const std::size_t n = keys.size();
  const SortKernels kernels = sort_kernels(queue, values != nullptr);
  const auto [groups, group] = layout_for(queue, kernels, n, call);
  const std::size_t items = groups * group;
  const std::size_t scan_group = algo::work_group_size(kernels.scan, kRadix);

  const Context& context = queue.context();
  const Bits scratch = context.alloc<std::uint32_t>(n);
  const Bits values_scratch = context.alloc<std::uint32_t>(values ? n : 0);
  const Bits counts = context.alloc<std::uint32_t>(kRadix * items);
  const Bits state = context.alloc<std::uint32_t>(kStateWords);
  // A kernel rather than fills: Oclgrind 21.10's uninitialized-memory check does not count a
  // fill as initializing the buffer (its later reads were reported).
  queue.launch(kernels.init, Range{1}, Range{1}, state);

  const unsigned count = static_cast<unsigned>(n), item_count = static_cast<unsigned>(items);
  const Range global{items}, local{group};
  const Local<unsigned> counters(kRadix * group);
  for (unsigned pass = 0; pass < kPasses; ++pass) {
    queue.launch(kernels.histogram, global, local, count, pass, image.flip_sign,
                 image.flip_negative, keys, scratch, counts, state, counters);
    queue.launch(kernels.scan, Range{scan_group}, Range{scan_group}, pass, item_count, counts,
                 state, Local<unsigned>(kRadix));
    if (values)
      queue.launch(kernels.scatter, global, local, count, pass, image.flip_sign,
                   image.flip_negative, keys, scratch, *values, values_scratch, counts, state,
                   counters);
    else
      queue.launch(kernels.scatter, global, local, count, pass, image.flip_sign,
                   image.flip_negative, keys, scratch, counts, state, counters);
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
  algo::require_queue(queue, "xgpu::detail::sort_work_group_size");
  const SortKernels kernels = sort_kernels(queue, false);
  const std::size_t at_most = max_group_items(queue, kernels, "xgpu::detail::sort_work_group_size");
  return std::min(algo::work_group_size(kernels.histogram, at_most),
                  algo::work_group_size(kernels.scatter, at_most));
}

template <class K>
Event sort_keys(Queue& queue, const Buffer<K>& keys) {
  const char* call = "xgpu::sort";
  check_queue_and_size(queue, keys.size(), call);
  if (keys.size() < 2) return Event();
  const Bits key_bits = as_bits(keys);
  return radix_sort(queue, key_bits, nullptr, key_image<K>(), call);
}

template <class K, class V>
Event sort_pairs(Queue& queue, const Buffer<K>& keys, const Buffer<V>& values) {
  const char* call = "xgpu::sort_by_key";
  check_queue_and_size(queue, keys.size(), call);
  if (values.size() != keys.size()) algo::size_mismatch(call, "values", values.size(), keys.size());
  if (keys.size() < 2) return Event();
  const Bits key_bits = as_bits(keys), value_bits = as_bits(values);
  return radix_sort(queue, key_bits, &value_bits, key_image<K>(), call);
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
