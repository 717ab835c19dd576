// xgpu::DeviceGroup: several devices (of any platforms and backends) used as one. It splits
// work into contiguous slices in proportion to each device's measured speed, moves data to
// and from the devices concurrently (scatter, gather, broadcast, all_reduce_sum) and runs a
// body on every device at once (for_each). docs/multi-device.md explains the split rule.
// libxgpu-multi, built on the public API only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>
#include <xgpu/buffer.hpp>
#include <xgpu/context.hpp>
#include <xgpu/device.hpp>
#include <xgpu/error.hpp>
#include <xgpu/export.hpp>
#include <xgpu/program.hpp>
#include <xgpu/queue.hpp>

namespace xgpu {

/// Elements [offset, offset + count) of a whole.
struct Slice {
  std::size_t offset = 0;
  std::size_t count = 0;
};

class DeviceGroup;
template <class T>
class Distributed;

namespace detail {
struct GroupState;

/// Runs task(i) for i in [0, count) on one thread each and waits for all of them. When any
/// throws, the rest still finish; then one Error naming each failing device (of `group`)
/// and its message is thrown, `call` being the operation ("DeviceGroup::scatter").
XGPU_MULTI_API void run_per_device(const GroupState& group, const char* call, std::size_t count,
                                   const std::function<void(std::size_t)>& task);
/// Throws invalid_argument unless `owner` is `group` (a Distributed used with another group).
XGPU_MULTI_API void check_owner(const GroupState& group, const GroupState* owner, const char* call);
/// Throws out_of_range naming `call` when index >= size.
XGPU_MULTI_API void check_index(std::size_t index, std::size_t size, const char* call);
/// Throws invalid_argument naming `call` when a host pointer is null for a non-empty copy.
XGPU_MULTI_API void check_host(const void* host, std::size_t count, const char* call);
/// Throws invalid_argument naming the first device whose element count differs from device 0's.
XGPU_MULTI_API void check_equal_sizes(const GroupState& group,
                                      const std::vector<std::size_t>& sizes, const char* call);
}  // namespace detail

/// One Buffer<T> per device of one group: either slices of one whole (scatter, alloc) or a
/// full copy on every device (broadcast: replicated). Copies share the buffers.
template <class T>
class Distributed {
 public:
  Distributed() = default;
  /// Total elements (of one copy, for a replicated one).
  std::size_t size() const noexcept { return size_; }
  /// The number of devices: the group's size.
  std::size_t parts() const noexcept { return buffers_.size(); }
  /// Made by broadcast(): every device holds all size() elements.
  bool replicated() const noexcept { return replicated_; }
  /// Device i's buffer: slice(i).count elements (size() when replicated).
  const Buffer<T>& buffer(std::size_t device) const {
    detail::check_index(device, buffers_.size(), "Distributed::buffer");
    return buffers_[device];
  }
  /// The part of the whole device i holds; {0, size()} when replicated.
  Slice slice(std::size_t device) const {
    detail::check_index(device, slices_.size(), "Distributed::slice");
    return slices_[device];
  }

 private:
  friend class DeviceGroup;
  std::shared_ptr<const detail::GroupState> group_;  // the group that made it
  std::vector<Buffer<T>> buffers_;
  std::vector<Slice> slices_;
  std::size_t size_ = 0;
  bool replicated_ = false;
};

/// A context and a profiling queue per device, and the weights that split work among them.
/// Copies share the devices and the weights. Safe to use from several threads.
class XGPU_MULTI_API DeviceGroup {
 public:
  /// Every device select_all(selector) matches (XGPU_VISIBLE_DEVICES applies), in its order:
  /// one member per physical device, through its preferred backend (docs/backends.md).
  /// No match: Errc::no_device naming the selector.
  explicit DeviceGroup(std::string_view selector = "*");
  /// These devices, in this order: non-empty, each once, no two of them aliases of one
  /// physical device (Device::aliases), else invalid_argument naming both.
  explicit DeviceGroup(std::vector<Device> devices);

  std::size_t size() const;
  struct Member {
    Device device;
    Context context;
    mutable Queue queue;  ///< in-order, profiling on; usable through a const Member&
  };
  /// Device i's member; out_of_range when i >= size().
  const Member& operator[](std::size_t i) const;

  /// One program per device, built concurrently (through the kernel cache); element i is
  /// device i's. A build failure names each failing device.
  std::vector<Program> build(const Source& source, std::string_view options = {},
                             const std::vector<Source>& headers = {}) const;

  /// Contiguous slices covering [0, n), one per device in order (some may be empty), sizes
  /// proportional to weights(), rounded by largest remainder so they sum to n exactly.
  std::vector<Slice> split(std::size_t n) const;
  /// The weights in effect, normalised to sum 1: fixed ones, or else from measured rates
  /// (a device measured under 1/100 as fast as the fastest gets 0; docs/multi-device.md).
  std::vector<double> weights() const;
  /// Fixes the weights (normalised here). One per device, finite, >= 0, not all zero, else
  /// invalid_argument.
  void set_weights(std::vector<double> weights);
  /// Back to measured weights (the default).
  void adapt_weights();

  /// Each device gets a buffer for its split(n) slice; nothing is copied.
  template <class T>
  Distributed<T> alloc(std::size_t n) const {
    return make_sliced<T>(split(n), n);
  }
  /// host[0, n) split across the devices, each slice copied to its device concurrently.
  template <class T>
  Distributed<T> scatter(const T* host, std::size_t n) const {
    detail::check_host(host, n, "DeviceGroup::scatter");
    Distributed<T> d = make_sliced<T>(split(n), n);
    detail::run_per_device(*state_, "DeviceGroup::scatter", size(), [&](std::size_t i) {
      if (d.slices_[i].count > 0) {
        (*this)[i].queue.write(d.buffers_[i], host + d.slices_[i].offset, d.slices_[i].count);
      }
    });
    return d;
  }
  template <class T>
  Distributed<T> scatter(const std::vector<T>& host) const {
    return scatter(host.data(), host.size());
  }
  /// `source`, a buffer on any device of any backend, split across the devices as
  /// scatter(host) splits, each slice copied device to device (Queue::copy) on its member's
  /// queue, concurrently: after every command enqueued so far that uses `source`, before each
  /// member queue's next commands. Returns once the copies are enqueued (a staged copy has
  /// then read its slice); overwrite `source` from another queue only after finishing the
  /// members' queues.
  template <class T>
  Distributed<T> scatter(const Buffer<T>& source) const {
    Distributed<T> d = make_sliced<T>(split(source.size()), source.size());
    detail::run_per_device(*state_, "DeviceGroup::scatter", size(), [&](std::size_t i) {
      if (d.slices_[i].count > 0) {
        (*this)[i].queue.copy(source, d.buffers_[i], d.slices_[i].count, d.slices_[i].offset, 0);
      }
    });
    return d;
  }
  /// A full copy of host[0, n) on every device (replicated), copied concurrently.
  template <class T>
  Distributed<T> broadcast(const T* host, std::size_t n) const {
    detail::check_host(host, n, "DeviceGroup::broadcast");
    Distributed<T> d = make_sliced<T>(std::vector<Slice>(size(), Slice{0, n}), n);
    d.replicated_ = true;
    detail::run_per_device(*state_, "DeviceGroup::broadcast", size(), [&](std::size_t i) {
      if (n > 0) (*this)[i].queue.write(d.buffers_[i], host, n);
    });
    return d;
  }
  template <class T>
  Distributed<T> broadcast(const std::vector<T>& host) const {
    return broadcast(host.data(), host.size());
  }
  /// A full copy of `source` (a buffer on any device) on every device, each copied device to
  /// device as scatter(source) copies its slices.
  template <class T>
  Distributed<T> broadcast(const Buffer<T>& source) const {
    const std::size_t n = source.size();
    Distributed<T> d = make_sliced<T>(std::vector<Slice>(size(), Slice{0, n}), n);
    d.replicated_ = true;
    detail::run_per_device(*state_, "DeviceGroup::broadcast", size(), [&](std::size_t i) {
      if (n > 0) (*this)[i].queue.copy(source, d.buffers_[i]);
    });
    return d;
  }
  /// Copies d back into host (d.size() elements), every device concurrently; a replicated
  /// d is read from device 0.
  template <class T>
  void gather(const Distributed<T>& d, T* host) const {
    detail::check_owner(*state_, d.group_.get(), "DeviceGroup::gather");
    detail::check_host(host, d.size(), "DeviceGroup::gather");
    const std::size_t readers = d.replicated() ? 1 : size();
    detail::run_per_device(*state_, "DeviceGroup::gather", readers, [&](std::size_t i) {
      if (d.slices_[i].count > 0) {
        (*this)[i].queue.read(d.buffers_[i], host + d.slices_[i].offset, d.slices_[i].count);
      }
    });
  }
  /// Copies d into `destination` (d.size() elements at least, on any device) device to device,
  /// every device's slice concurrently, on `queue`, a queue of destination's context: each
  /// after the commands enqueued so far on the member's queue, all before `queue`'s next
  /// commands. A replicated d is copied from device 0.
  template <class T>
  void gather(const Distributed<T>& d, Queue& queue, const Buffer<T>& destination) const {
    detail::check_owner(*state_, d.group_.get(), "DeviceGroup::gather");
    const std::size_t readers = d.replicated() ? 1 : size();
    detail::run_per_device(*state_, "DeviceGroup::gather", readers, [&](std::size_t i) {
      if (d.slices_[i].count > 0) {
        queue.copy(d.buffers_[i], destination, d.slices_[i].count, 0, d.slices_[i].offset);
      }
    });
  }
  template <class T>
  void gather(const Distributed<T>& d, std::vector<T>& host) const {
    host.resize(d.size());
    gather(d, host.data());
  }
  template <class T>
  std::vector<T> gather(const Distributed<T>& d) const {
    std::vector<T> host(d.size());
    gather(d, host.data());
    return host;
  }
  /// Every device ends with the element-wise sum of all devices' buffers. Host-staged: all
  /// buffers are read concurrently, summed on the host in device order (floating point in
  /// double, rounded once: see docs/multi-device.md for the bound; integers wrap), and
  /// written back concurrently. Every buffer must hold the same number of elements (e.g. a
  /// replicated d), else invalid_argument naming the first that differs.
  template <class T>
  void all_reduce_sum(Distributed<T>& d) const;

  /// Runs body(queue, device, slice) for every device concurrently (one thread each) with
  /// device i's split(n)[i], then finishes each queue; a device with an empty slice is not
  /// called. Each device's time (body + finish) is measured and, unless set_weights() fixed
  /// them, the weights adapt to the measured rates. If any device throws, the others still
  /// finish; then one Error naming each failing device and its message is thrown.
  void for_each(std::size_t n, const std::function<void(Queue&, std::size_t, Slice)>& body) const;
  /// The same over d's slices (d.slice(i) for device i).
  template <class T>
  void for_each(const Distributed<T>& d,
                const std::function<void(Queue&, std::size_t, Slice)>& body) const {
    detail::check_owner(*state_, d.group_.get(), "DeviceGroup::for_each");
    for_each_slices(d.slices_, body);
  }

 private:
  template <class T>
  Distributed<T> make_sliced(std::vector<Slice> slices, std::size_t n) const {
    Distributed<T> d;
    d.group_ = state_;
    d.size_ = n;
    d.buffers_.reserve(slices.size());
    for (std::size_t i = 0; i < slices.size(); ++i) {
      d.buffers_.push_back((*this)[i].context.template alloc<T>(slices[i].count));
    }
    d.slices_ = std::move(slices);
    return d;
  }
  void for_each_slices(const std::vector<Slice>& slices,
                       const std::function<void(Queue&, std::size_t, Slice)>& body) const;

  std::shared_ptr<detail::GroupState> state_;
};

namespace detail {
// The type sums are accumulated in: double for floating point (rounded once at the end), the
// unsigned type of the same width for integers (so overflow wraps instead of being undefined).
template <class T, bool = std::is_floating_point_v<T>>
struct SumAccumulator {
  using type = double;
};
template <class T>
struct SumAccumulator<T, false> {
  using type = std::make_unsigned_t<T>;
};
}  // namespace detail

template <class T>
void DeviceGroup::all_reduce_sum(Distributed<T>& d) const {
  static_assert(std::is_arithmetic_v<T> && !std::is_same_v<T, bool>,
                "all_reduce_sum needs an integer or floating-point T");
  const char* call = "DeviceGroup::all_reduce_sum";
  detail::check_owner(*state_, d.group_.get(), call);
  std::vector<std::size_t> sizes;
  for (const auto& buffer : d.buffers_) sizes.push_back(buffer.size());
  detail::check_equal_sizes(*state_, sizes, call);
  const std::size_t count = sizes.empty() ? 0 : sizes[0];
  if (count == 0) return;
  std::vector<std::vector<T>> staged(size(), std::vector<T>(count));
  detail::run_per_device(*state_, call, size(), [&](std::size_t i) {
    (*this)[i].queue.read(d.buffers_[i], staged[i].data(), count);
  });
  using Acc = typename detail::SumAccumulator<T>::type;
  std::vector<T> sum(count);
  for (std::size_t e = 0; e < count; ++e) {
    Acc total = 0;
    for (std::size_t i = 0; i < staged.size(); ++i) total += static_cast<Acc>(staged[i][e]);
    sum[e] = static_cast<T>(total);
  }
  detail::run_per_device(*state_, call, size(), [&](std::size_t i) {
    (*this)[i].queue.write(d.buffers_[i], sum.data(), count);
  });
}

}  // namespace xgpu
