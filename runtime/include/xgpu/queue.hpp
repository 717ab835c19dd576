// xgpu::Queue: an in-order stream of copies and kernel launches on one device.
//
// Thread safety: a Queue may be used from several threads at once; commands enter it in
// the order the calls happen. Launches of the same Kernel from several threads are
// serialized while its arguments are set. Blocking calls (write, read, map, finish) block
// only the calling thread.
#pragma once

#include <array>
#include <cstddef>
#include <exception>
#include <limits>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>
#include <xgpu/buffer.hpp>
#include <xgpu/context.hpp>
#include <xgpu/event.hpp>
#include <xgpu/export.hpp>
#include <xgpu/handle.hpp>
#include <xgpu/host_buffer.hpp>
#include <xgpu/kernel_args.hpp>
#include <xgpu/program.hpp>
#include <xgpu/range.hpp>

namespace xgpu {

template <class T>
class Mapping;
class Queue;

namespace detail {
class QueueCommands;
/// The recent commands of `queue` that have an Event (queue_commands.hpp); null for an empty
/// Queue.
QueueCommands* commands_of(const Queue& queue) noexcept;
}  // namespace detail

class XGPU_API Queue {
 public:
  Queue() = default;

  /// Copies `count` elements from host memory into dst starting at element `offset`.
  /// Blocking: the host memory may be reused when it returns.
  template <class T>
  void write(const Buffer<T>& dst, const T* src, std::size_t count = all, std::size_t offset = 0) {
    transfer(Direction::write, core(dst.untyped()), sizeof(T), const_cast<T*>(src), count, offset,
             true);
  }
  template <class T>
  void write(const Buffer<T>& dst, const std::vector<T>& src, std::size_t offset = 0) {
    transfer(Direction::write, core(dst.untyped()), sizeof(T), const_cast<T*>(src.data()),
             src.size(), offset, true);
  }
  /// Non-blocking write: src must stay valid until the returned Event completes.
  template <class T>
  Event write_async(const Buffer<T>& dst, const T* src, std::size_t count = all,
                    std::size_t offset = 0) {
    return transfer(Direction::write, core(dst.untyped()), sizeof(T), const_cast<T*>(src), count,
                    offset, false);
  }

  /// Copies `count` elements of src from element `offset` into host memory. Blocking.
  template <class T>
  void read(const Buffer<T>& src, T* dst, std::size_t count = all, std::size_t offset = 0) {
    transfer(Direction::read, core(src.untyped()), sizeof(T), dst, count, offset, true);
  }
  template <class T>
  std::vector<T> read(const Buffer<T>& src) {
    std::vector<T> host(src.size());
    transfer(Direction::read, core(src.untyped()), sizeof(T), host.data(), host.size(), 0, true);
    return host;
  }
  template <class T>
  Event read_async(const Buffer<T>& src, T* dst, std::size_t count = all, std::size_t offset = 0) {
    return transfer(Direction::read, core(src.untyped()), sizeof(T), dst, count, offset, false);
  }

  /// Async copies between a device buffer and a HostBuffer (Context::alloc_host): `count`
  /// elements (all: the rest of the device buffer from `offset`) at element `host_offset` of
  /// the HostBuffer. The HostBuffer's memory stays allocated until the copy completes, even
  /// when every HostBuffer and the Event are dropped first (its free waits for the copy).
  template <class T>
  Event write_async(const Buffer<T>& dst, const HostBuffer<T>& src, std::size_t count = all,
                    std::size_t offset = 0, std::size_t host_offset = 0) {
    return transfer_host(Direction::write, core(dst.untyped()), sizeof(T), src.storage().get(),
                         src.size(), count, offset, host_offset);
  }
  template <class T>
  Event read_async(const Buffer<T>& src, const HostBuffer<T>& dst, std::size_t count = all,
                   std::size_t offset = 0, std::size_t host_offset = 0) {
    return transfer_host(Direction::read, core(src.untyped()), sizeof(T), dst.storage().get(),
                         dst.size(), count, offset, host_offset);
  }

  /// Device-side copy of `count` elements (all of src by default). dst must be of this
  /// queue's context; src may be of another (another device or backend: a device-to-device
  /// copy). Then the copy starts after every command enqueued so far that uses src, on any
  /// queue, and comes before this queue's next commands: a peer copy where the module offers
  /// one (CUDA to CUDA: the call returns at once), otherwise staged through pinned host memory
  /// in chunks, the read of one chunk overlapping the write of the previous, and the call
  /// returns once the copy is done (docs/multi-device.md).
  template <class T>
  Event copy(const Buffer<T>& src, const Buffer<T>& dst, std::size_t count = all,
             std::size_t src_offset = 0, std::size_t dst_offset = 0) {
    return copy_bytes(core(src.untyped()), core(dst.untyped()), sizeof(T), count, src_offset,
                      dst_offset);
  }

  /// Sets `count` elements from `offset` to value.
  template <class T>
  Event fill(const Buffer<T>& dst, const typename Buffer<T>::value_type& value,
             std::size_t count = all, std::size_t offset = 0) {
    return fill_bytes(core(dst.untyped()), &value, sizeof(T), count, offset);
  }

  /// Maps elements of a buffer into host memory (blocking). On devices that share memory
  /// with the host (CPUs, integrated GPUs) this costs no copy, unlike read(). The
  /// Mapping unmaps itself when destroyed.
  template <class T>
  Mapping<T> map(const Buffer<T>& buffer, std::size_t count = all, std::size_t offset = 0);

  /// Launches a kernel over a global range; a second Range is the work-group size.
  /// Arguments are checked against the kernel's parameters before anything is enqueued.
  template <class... Args>
  Event launch(const Kernel& kernel, const Range& global, const Args&... args) {
    return launch(kernel, Launch(global), args...);
  }
  template <class... Args>
  Event launch(const Kernel& kernel, const Range& global, const Range& local, const Args&... args) {
    return launch(kernel, Launch(global).local(local), args...);
  }
  template <class... Args>
  Event launch(const Kernel& kernel, const Launch& launch, const Args&... args) {
    std::array<detail::KernelArg, sizeof...(Args)> described{detail::make_arg(args)...};
    return launch_described(kernel, launch, described.data(), described.size(),
                            &detail::ArgTypes<Args...>::token, true);
  }

  /// Launches with arguments chosen at run time (see KernelArgs); the same checks and errors.
  Event launch(const Kernel& kernel, const Launch& launch, const KernelArgs& args) {
    return launch_described(kernel, launch, args.data(), args.size(), nullptr, true);
  }

  /// launch() for a caller that keeps no Event: no Event is made or returned (the driver is
  /// asked for one only when the kernel cache needs it), which saves the calling thread the
  /// driver's event and its release on every launch (docs/BENCHMARKS.md counts a launch's
  /// instructions). Same checks, same errors; wait with finish() or a later launch's Event.
  template <class... Args>
  void submit(const Kernel& kernel, const Range& global, const Args&... args) {
    submit(kernel, Launch(global), args...);
  }
  template <class... Args>
  void submit(const Kernel& kernel, const Range& global, const Range& local, const Args&... args) {
    submit(kernel, Launch(global).local(local), args...);
  }
  template <class... Args>
  void submit(const Kernel& kernel, const Launch& launch, const Args&... args) {
    std::array<detail::KernelArg, sizeof...(Args)> described{detail::make_arg(args)...};
    launch_described(kernel, launch, described.data(), described.size(),
                     &detail::ArgTypes<Args...>::token, false);
  }

  void submit(const Kernel& kernel, const Launch& launch, const KernelArgs& args) {
    launch_described(kernel, launch, args.data(), args.size(), nullptr, false);
  }

  /// Blocks until every command so far has completed. Throws xgpu::Error when one failed on
  /// the device, naming it when it is one of the last commands that made an Event (submit()
  /// makes none).
  void finish();
  /// Later commands of this queue start only once `event` (of any queue of the same
  /// context) has completed; the host is not blocked. An empty Event is complete: nothing
  /// to wait for. An Event of another context or backend throws context_mismatch (OpenCL
  /// cannot wait across contexts); a module without queue_barrier throws unsupported.
  void wait(const Event& event);
  /// An Event that completes once every command enqueued on this queue so far has; hand it
  /// to another queue's wait() to order the two queues.
  Event marker();
  /// Submits queued commands to the device without waiting.
  void flush();

  const Context& context() const { return context_; }
  const Device& device() const { return context_.device(); }
  bool profiling() const { return profiling_; }
  void* raw() const noexcept { return handle_.get(); }
  explicit operator bool() const noexcept { return static_cast<bool>(handle_); }

 private:
  friend struct detail::Internals;
  Queue(Context context, detail::Handle<detail::ObjectKind::queue> handle, bool profiling);
  template <class T>
  friend class Mapping;
  friend detail::QueueCommands* detail::commands_of(const Queue& queue) noexcept;
  // The untyped operations the templates above reduce to (not API: libraries built on xgpu
  // find what they need in <xgpu/extension.hpp>).
  enum class Direction { write, read };
  static const detail::BufferCore& core(const UntypedBuffer& buffer) noexcept {
    return buffer.core_;
  }
  Event transfer(Direction direction, const detail::BufferCore& buffer, std::size_t element_size,
                 void* host, std::size_t count, std::size_t offset, bool blocking);
  // transfer() to or from the memory of a HostBuffer of `host_count` elements, which the
  // storage then keeps until the copy completes.
  Event transfer_host(Direction direction, const detail::BufferCore& buffer,
                      std::size_t element_size, detail::HostStorage* storage,
                      std::size_t host_count, std::size_t count, std::size_t offset,
                      std::size_t host_offset);
  // queue_barrier with `events` (may be none); returns its event when `keep_event`.
  Event barrier(const char* operation, const Event* events, std::size_t count, bool keep_event);
  Event copy_bytes(const detail::BufferCore& src, const detail::BufferCore& dst,
                   std::size_t element_size, std::size_t count, std::size_t src_offset,
                   std::size_t dst_offset);
  Event fill_bytes(const detail::BufferCore& dst, const void* pattern, std::size_t element_size,
                   std::size_t count, std::size_t offset);
  void* map_bytes(const detail::BufferCore& buffer, std::size_t element_size, std::size_t& count,
                  std::size_t offset);
  void unmap_bytes(const detail::BufferCore& buffer, void* pointer);
  // `types`: the token of the arguments' C++ types (detail::ArgTypes), nullptr for arguments
  // chosen at run time; `keep_event`: whether the caller takes the launch's Event.
  Event launch_described(const Kernel& kernel, const Launch& launch, const detail::KernelArg* args,
                         std::size_t count, const void* types, bool keep_event);

  Context context_;
  detail::Handle<detail::ObjectKind::queue> handle_;
  bool profiling_ = false;
  std::shared_ptr<detail::QueueCommands> commands_;  ///< shared by the copies of this Queue
};

/// Host access to mapped buffer elements; unmaps when destroyed (or at unmap()).
/// Keep it alive only while the host works on the data: kernels using the buffer must
/// not run while it is mapped.
template <class T>
class Mapping {
 public:
  Mapping(Queue queue, Buffer<T> buffer, T* data, std::size_t count)
      : queue_(std::move(queue)), buffer_(std::move(buffer)), data_(data), count_(count) {}
  Mapping(const Mapping&) = delete;
  Mapping& operator=(const Mapping&) = delete;
  Mapping(Mapping&& other) noexcept
      : queue_(std::move(other.queue_)),
        buffer_(std::move(other.buffer_)),
        data_(std::exchange(other.data_, nullptr)),
        count_(std::exchange(other.count_, 0)) {}
  Mapping& operator=(Mapping&& other) noexcept {
    if (this != &other) {
      release_quietly();
      queue_ = std::move(other.queue_);
      buffer_ = std::move(other.buffer_);
      data_ = std::exchange(other.data_, nullptr);
      count_ = std::exchange(other.count_, 0);
    }
    return *this;
  }
  ~Mapping() { release_quietly(); }

  /// Unmaps now; throws xgpu::Error if the backend refuses.
  void unmap() {
    if (data_) queue_.unmap_bytes(Queue::core(buffer_.untyped()), std::exchange(data_, nullptr));
    count_ = 0;
  }

  T* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return count_; }
  T* begin() const noexcept { return data_; }
  T* end() const noexcept { return data_ + count_; }
  T& operator[](std::size_t i) const noexcept { return data_[i]; }

 private:
  void release_quietly() noexcept;
  Queue queue_;
  Buffer<T> buffer_;
  T* data_ = nullptr;
  std::size_t count_ = 0;
};

namespace detail {
XGPU_API void log_unmap_failure(const char* what) noexcept;
}

template <class T>
void Mapping<T>::release_quietly() noexcept {
  try {
    unmap();
  } catch (const std::exception& e) {
    detail::log_unmap_failure(e.what());
  }
}

template <class T>
Mapping<T> Queue::map(const Buffer<T>& buffer, std::size_t count, std::size_t offset) {
  void* data = map_bytes(core(buffer.untyped()), sizeof(T), count, offset);
  return Mapping<T>(*this, buffer, static_cast<T*>(data), count);
}

}  // namespace xgpu
