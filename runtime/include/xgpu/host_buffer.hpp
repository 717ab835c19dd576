// xgpu::HostBuffer<T>: host memory the device copies from and to fastest, from
// Context::alloc_host<T>(n).
//
// In OpenCL it is a buffer made with CL_MEM_ALLOC_HOST_PTR and mapped once for its whole life:
// the portable way to get pinned (page-locked) memory, the one NVIDIA's and AMD's guides name,
// and memory that write_async/read_async through the mapped pointer can DMA from directly.
// Where the driver refuses (a size over its largest allocation, a module without mapping) the
// memory is ordinary page-aligned host memory instead, and pinned() says so: every operation
// works the same, only slower.
//
// Lifetime: copies share the memory (like Buffer). An async copy to or from a HostBuffer is
// remembered by its storage, and the last HostBuffer to go waits for those copies before the
// memory is freed: dropping a HostBuffer (and the copy's Event) early never frees memory a
// device is still reading or writing.
#pragma once

#include <cstddef>
#include <memory>
#include <utility>
#include <xgpu/export.hpp>

namespace xgpu {
class Event;
namespace detail {
struct ContextState;
class HostStorage;  // runtime/src/host_buffer.cpp
XGPU_API std::shared_ptr<HostStorage> allocate_host(const std::shared_ptr<ContextState>& context,
                                                    std::size_t bytes);
XGPU_API void* host_data(const HostStorage& storage) noexcept;
XGPU_API bool host_pinned(const HostStorage& storage) noexcept;
/// Remembers a command using the storage's memory; the storage's end waits for it.
XGPU_API void host_track(HostStorage& storage, const Event& event);
}  // namespace detail

template <class T>
class HostBuffer {
 public:
  using value_type = T;

  HostBuffer() = default;
  HostBuffer(std::shared_ptr<detail::HostStorage> storage, std::size_t count)
      : storage_(std::move(storage)),
        data_(storage_ ? static_cast<T*>(detail::host_data(*storage_)) : nullptr),
        size_(data_ ? count : 0) {}
  HostBuffer(const HostBuffer&) = default;
  HostBuffer& operator=(const HostBuffer&) = default;
  // A moved-from HostBuffer is empty: no memory and size 0.
  HostBuffer(HostBuffer&& other) noexcept
      : storage_(std::move(other.storage_)),
        data_(std::exchange(other.data_, nullptr)),
        size_(std::exchange(other.size_, 0)) {}
  HostBuffer& operator=(HostBuffer&& other) noexcept {
    if (this != &other) {
      storage_ = std::move(other.storage_);
      data_ = std::exchange(other.data_, nullptr);
      size_ = std::exchange(other.size_, 0);
    }
    return *this;
  }

  T* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }
  std::size_t size_bytes() const noexcept { return size_ * sizeof(T); }
  bool empty() const noexcept { return size_ == 0; }
  T* begin() const noexcept { return data_; }
  T* end() const noexcept { return data_ + size_; }
  T& operator[](std::size_t i) const noexcept { return data_[i]; }

  /// Whether the driver gave page-locked memory (false: the ordinary-memory fallback).
  bool pinned() const noexcept { return storage_ && detail::host_pinned(*storage_); }
  const std::shared_ptr<detail::HostStorage>& storage() const noexcept { return storage_; }

 private:
  std::shared_ptr<detail::HostStorage> storage_;
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace xgpu
