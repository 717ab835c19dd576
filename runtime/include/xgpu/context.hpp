// xgpu::Context: one device's memory and programs. Allocations and builds go through it.
#pragma once

#include <memory>
#include <string_view>
#include <vector>
#include <xgpu/buffer.hpp>
#include <xgpu/device.hpp>
#include <xgpu/export.hpp>
#include <xgpu/host_buffer.hpp>
#include <xgpu/memory.hpp>
#include <xgpu/program.hpp>

namespace xgpu {
namespace detail {
struct ContextState;
struct Internals;
XGPU_API UntypedBuffer allocate(const ContextState& context, std::size_t bytes, Access access,
                                bool host_visible);
}  // namespace detail

class Queue;

/// Options of Context::queue().
struct QueueOptions {
  bool profiling = false;  ///< record timestamps on every Event (small cost per command)
};

/// A context on one device. Copies share it; it is safe to use from several threads.
class XGPU_API Context {
 public:
  Context() = default;
  explicit Context(const Device& device);

  const Device& device() const;
  /// A new in-order queue.
  Queue queue(QueueOptions options = {}) const;

  /// `count` elements of T. 0 is valid (an empty buffer). Throws allocation_too_large when
  /// the size exceeds the device's maximum allocation. host_visible asks for memory the
  /// host can map without a copy (see Queue::map).
  template <class T>
  Buffer<T> alloc(std::size_t count, Access access = Access::read_write,
                  bool host_visible = false) const {
    return Buffer<T>(
        detail::allocate(*state(), checked_bytes(count, sizeof(T)), access, host_visible));
  }

  /// Builds OpenCL C for this context's device. Throws build_failed with the driver's log,
  /// the options and the file:line of the mistake. `headers` serve `#include "name"`.
  Program build(const Source& source, std::string_view options = {},
                const std::vector<Source>& headers = {}) const;

  /// What this context's allocator holds now (copies of a Context share it).
  MemoryStats memory_stats() const;
  /// Starts peak_allocated and peak_reserved again from what is held now.
  void reset_peak_stats() const;
  /// Returns to the driver every cached block no buffer uses and no pending command touches.
  void empty_cache() const;
  /// Caps `reserved`: an allocation that would pass it throws out_of_memory (after the cache
  /// is returned and the allocation retried once). 0 removes the limit; XGPU_MEMORY_LIMIT
  /// sets it at creation ("4G", or a fraction of the device's memory such as "0.8").
  void set_memory_limit(std::uint64_t bytes) const;

  /// `count` elements of host memory the device copies from and to fastest: pinned where
  /// the driver offers it (see xgpu/host_buffer.hpp). Use it as the source or destination of
  /// Queue::write_async/read_async. 0 is valid (an empty HostBuffer).
  template <class T>
  HostBuffer<T> alloc_host(std::size_t count) const {
    return HostBuffer<T>(detail::allocate_host(state(), checked_bytes(count, sizeof(T))), count);
  }

  explicit operator bool() const noexcept { return static_cast<bool>(state_); }

 private:
  friend struct detail::Internals;
  // The state, or an invalid_handle error for an empty Context.
  const std::shared_ptr<detail::ContextState>& state() const;
  static std::size_t checked_bytes(std::size_t count, std::size_t element_size);
  std::shared_ptr<detail::ContextState> state_;
};

}  // namespace xgpu
