// xgpu::Buffer<T>: typed device memory, and xgpu::Local<T>: a work-group's local memory.
#pragma once

#include <cstddef>
#include <limits>
#include <memory>
#include <type_traits>
#include <utility>
#include <xgpu/error.hpp>
#include <xgpu/export.hpp>
#include <xgpu/handle.hpp>

namespace xgpu {

/// Means "to the end of the buffer" in counts.
inline constexpr std::size_t all = std::numeric_limits<std::size_t>::max();

class Queue;
namespace detail {
struct DeviceRecord;
struct Internals;
/// A buffer's share of its context's allocator (runtime/src/memory/allocation.hpp): the last
/// copy of a buffer to go returns the memory to the pool and counts the free.
struct Allocation;

/// What a buffer holds, the library's own: a program never reaches it (UntypedBuffer keeps it
/// private). An empty buffer (0 elements) has no backend object: OpenCL refuses size 0, so
/// xgpu handles emptiness itself.
struct BufferCore {
  BufferCore() = default;
  BufferCore(const BufferCore&) = default;
  BufferCore& operator=(const BufferCore&) = default;
  // A moved-from buffer is empty in every respect, not a size without memory.
  BufferCore(BufferCore&& other) noexcept
      : handle(std::move(other.handle)),
        bytes(std::exchange(other.bytes, 0)),
        offset(std::exchange(other.offset, 0)),
        start(std::exchange(other.start, 0)),
        context(std::exchange(other.context, nullptr)),
        device(std::exchange(other.device, nullptr)),
        allocation(std::move(other.allocation)) {}
  BufferCore& operator=(BufferCore&& other) noexcept {
    if (this != &other) {
      handle = std::move(other.handle);
      bytes = std::exchange(other.bytes, 0);
      offset = std::exchange(other.offset, 0);
      start = std::exchange(other.start, 0);
      context = std::exchange(other.context, nullptr);
      device = std::exchange(other.device, nullptr);
      allocation = std::move(other.allocation);
    }
    return *this;
  }

  Handle<ObjectKind::buffer> handle;
  std::size_t bytes = 0;
  /// Bytes into `handle`'s memory where this buffer begins: non-zero only for a view that
  /// could not be a sub-buffer (Buffer::view); copies and maps add it, kernels refuse it.
  std::size_t offset = 0;
  /// Bytes from the first byte of its allocation (0 for a whole buffer): where a view starts.
  std::size_t start = 0;
  void* context = nullptr;  ///< the backend context it belongs to (kept alive by the buffer);
                            ///< nullptr for a default-constructed or moved-from buffer
  const DeviceRecord* device = nullptr;
  /// Set for every non-empty buffer xgpu allocated. The pool keeps its own reference to a
  /// pooled block's handle, so the order in which the two members go does not matter.
  std::shared_ptr<Allocation> allocation;
};

}  // namespace detail

/// A buffer with its element type erased: what the untyped calls of <xgpu/extension.hpp> and
/// libxgpu-mpi take (bindings that know an element type only at run time). Opaque: it can be
/// copied, moved and asked its size; only the library reads what it holds.
class UntypedBuffer {
 public:
  UntypedBuffer() = default;
  std::size_t bytes() const noexcept { return core_.bytes; }
  bool empty() const noexcept { return core_.bytes == 0; }

 private:
  friend struct detail::Internals;
  friend class Queue;  // the templates of queue.hpp hand the memory to Queue's own calls
  explicit UntypedBuffer(detail::BufferCore core) : core_(std::move(core)) {}
  detail::BufferCore core_;
};

namespace detail {
/// Elements [offset, offset + count) of `buffer` (count `all`: to its end) as a buffer of
/// their own: Buffer::view.
XGPU_API UntypedBuffer buffer_view(const UntypedBuffer& buffer, std::size_t element_size,
                                   std::size_t offset, std::size_t count);
}  // namespace detail

template <class T>
class Buffer;
class Context;
namespace ext {
template <class T>
Buffer<T> typed(const UntypedBuffer& buffer);
}  // namespace ext

/// How kernels may use a buffer; host_visible asks for memory the host can map without copy.
enum class Access : unsigned { read_write = 0, read_only = 1, write_only = 2 };

template <class T>
class Buffer {
  static_assert(std::is_trivially_copyable_v<T>, "Buffer<T> needs a trivially copyable T");

 public:
  using value_type = T;
  Buffer() = default;

  std::size_t size() const noexcept { return buffer_.bytes() / sizeof(T); }
  std::size_t bytes() const noexcept { return buffer_.bytes(); }
  bool empty() const noexcept { return buffer_.empty(); }

  /// Elements [offset, offset + count) of this buffer (count `all`: to the end) as a Buffer of
  /// their own, usable wherever a buffer is: launches, copies, maps and the algorithms. It
  /// shares this buffer's memory (no copy) and keeps it allocated. Where the view's first
  /// byte, counted from the start of its allocation, is a multiple of the device's
  /// base-address alignment (DeviceInfo::base_address_alignment), the view is a sub-buffer of
  /// its own and a kernel takes it like any buffer; elsewhere copies and maps still take it,
  /// the algorithms library stages it through a scratch copy, and a launch of your own kernel
  /// refuses it with Errc::invalid_argument naming the alignment (docs/memory.md, "Views").
  /// A range past the end throws Errc::out_of_range; a count of 0 gives an empty buffer.
  Buffer view(std::size_t offset, std::size_t count = all) const {
    return Buffer(detail::buffer_view(buffer_, sizeof(T), offset, count));
  }
  /// This buffer with its element type erased, for the untyped calls of <xgpu/extension.hpp>
  /// and libxgpu-mpi.
  const UntypedBuffer& untyped() const noexcept { return buffer_; }

 private:
  friend class Context;  // Context::alloc
  template <class U>
  friend Buffer<U> ext::typed(const UntypedBuffer& buffer);
  explicit Buffer(UntypedBuffer buffer) : buffer_(std::move(buffer)) {}
  UntypedBuffer buffer_;
};

namespace ext {
/// `buffer` as elements of T, the same memory: what an untyped call hands back to typed code.
/// Its bytes must be a whole number of elements (Errc::invalid_argument otherwise).
template <class T>
Buffer<T> typed(const UntypedBuffer& buffer) {
  if (buffer.bytes() % sizeof(T) != 0)
    throw Error(Errc::invalid_argument,
                "xgpu::ext::typed: a buffer of " + std::to_string(buffer.bytes()) +
                    " bytes is not a whole number of elements of " + std::to_string(sizeof(T)) +
                    " bytes",
                "xgpu::ext::typed");
  return Buffer<T>(buffer);
}
}  // namespace ext

/// A kernel argument of `count` elements of local (work-group shared) memory.
template <class T>
struct Local {
  explicit Local(std::size_t element_count) : count(element_count) {}
  std::size_t count;
};

}  // namespace xgpu
