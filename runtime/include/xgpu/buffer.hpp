// xgpu::Buffer<T>: typed device memory, and xgpu::Local<T>: a work-group's local memory.
#pragma once

#include <cstddef>
#include <memory>
#include <type_traits>
#include <utility>
#include <xgpu/handle.hpp>

namespace xgpu {
namespace detail {
struct DeviceRecord;
/// A buffer's share of its context's allocator (runtime/src/memory/allocation.hpp): the last
/// copy of a buffer to go returns the memory to the pool and counts the free.
struct Allocation;

/// The untyped part of a buffer. An empty buffer (0 elements) has no backend object:
/// OpenCL refuses size 0, so xgpu handles emptiness itself.
struct BufferCore {
  BufferCore() = default;
  BufferCore(const BufferCore&) = default;
  BufferCore& operator=(const BufferCore&) = default;
  // A moved-from buffer is empty in every respect, not a size without memory.
  BufferCore(BufferCore&& other) noexcept
      : handle(std::move(other.handle)),
        bytes(std::exchange(other.bytes, 0)),
        context(std::exchange(other.context, nullptr)),
        device(std::exchange(other.device, nullptr)),
        allocation(std::move(other.allocation)) {}
  BufferCore& operator=(BufferCore&& other) noexcept {
    if (this != &other) {
      handle = std::move(other.handle);
      bytes = std::exchange(other.bytes, 0);
      context = std::exchange(other.context, nullptr);
      device = std::exchange(other.device, nullptr);
      allocation = std::move(other.allocation);
    }
    return *this;
  }

  Handle<ObjectKind::buffer> handle;
  std::size_t bytes = 0;
  void* context = nullptr;  ///< the backend context it belongs to (kept alive by the buffer);
                            ///< nullptr for a default-constructed or moved-from buffer
  const DeviceRecord* device = nullptr;
  /// Set for every non-empty buffer xgpu allocated. The pool keeps its own reference to a
  /// pooled block's handle, so the order in which the two members go does not matter.
  std::shared_ptr<Allocation> allocation;
};
}  // namespace detail

/// How kernels may use a buffer; host_visible asks for memory the host can map without copy.
enum class Access : unsigned { read_write = 0, read_only = 1, write_only = 2 };

template <class T>
class Buffer {
  static_assert(std::is_trivially_copyable_v<T>, "Buffer<T> needs a trivially copyable T");

 public:
  using value_type = T;
  Buffer() = default;
  explicit Buffer(detail::BufferCore core) : core_(std::move(core)) {}

  std::size_t size() const noexcept { return core_.bytes / sizeof(T); }
  std::size_t bytes() const noexcept { return core_.bytes; }
  bool empty() const noexcept { return core_.bytes == 0; }
  const detail::BufferCore& core() const noexcept { return core_; }

 private:
  detail::BufferCore core_;
};

/// A kernel argument of `count` elements of local (work-group shared) memory.
template <class T>
struct Local {
  explicit Local(std::size_t element_count) : count(element_count) {}
  std::size_t count;
};

}  // namespace xgpu
