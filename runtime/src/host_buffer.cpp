// Host memory for fast copies (xgpu/host_buffer.hpp): a host-visible buffer mapped once for
// its whole life, or ordinary page-aligned memory where the driver will not give one.
#include "xgpu/host_buffer.hpp"

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <string>
#include <vector>

#include "log.hpp"
#include "module.hpp"
#include "objects.hpp"
#include "settings.hpp"
#include "xgpu/byte_size.hpp"
#include "xgpu/event.hpp"

namespace xgpu::detail {
namespace {
// Page alignment: what DMA engines want of host memory, and what drivers give mapped memory.
constexpr std::size_t kPageAlignment = 4096;

// XGPU_HOST_MEMORY=pageable: ordinary memory even where the driver would pin it, to compare
// the two, and for the sanitizer tests (AddressSanitizer sees a use after free of ordinary
// memory; inside a driver's mapping it may not). A word it does not know is refused at each
// alloc_host.
bool pageable_requested() {
  return read_word(common::Setting::host_memory, "Context::alloc_host") == "pageable";
}
}  // namespace

class HostStorage {
 public:
  HostStorage(std::shared_ptr<ContextState> context, std::size_t bytes, bool pageable)
      : context_(std::move(context)) {
    if (pageable || !try_pinned(bytes)) {
      data_ = ::operator new(bytes, std::align_val_t(kPageAlignment));
      fallback_ = true;
    }
  }
  HostStorage(const HostStorage&) = delete;
  HostStorage& operator=(const HostStorage&) = delete;

  // The free waits for every copy still using the memory: a HostBuffer dropped (with its
  // copies' Events) before they complete must not free what a device still reads or writes.
  ~HostStorage() {
    // At exit the drivers may be gone (see handle.cpp): ask them nothing; the process's
    // memory goes with it.
    if (exit_has_begun()) {
      if (fallback_) ::operator delete(data_, std::align_val_t(kPageAlignment));
      return;
    }
    for (const Event& event : pending_) {
      try {
        event.wait();
      } catch (const std::exception& e) {
        // A failed copy no longer uses the memory either.
        try {
          logger().debug("HostBuffer: a copy using it failed before its free: {}", e.what());
        } catch (...) {
        }
      }
    }
    if (fallback_) {
      ::operator delete(data_, std::align_val_t(kPageAlignment));
      return;
    }
    unmap_quietly();
  }

  void* data() const noexcept { return data_; }
  bool pinned() const noexcept { return !fallback_; }

  void track(const Event& event) {
    if (!event) return;  // an empty command used no memory
    std::lock_guard<std::mutex> lock(mutex_);
    // Drop the completed (and failed) ones so a long-lived buffer's list stays short.
    std::vector<Event> still;
    still.reserve(pending_.size() + 1);
    for (Event& old : pending_) {
      bool done = true;
      try {
        done = old.status() == EventStatus::complete;
      } catch (const Error&) {
      }
      if (!done) still.push_back(std::move(old));
    }
    still.push_back(event);
    pending_ = std::move(still);
  }

 private:
  // A host-visible (CL_MEM_ALLOC_HOST_PTR) buffer, mapped once on a queue of its own.
  bool try_pinned(std::size_t bytes) {
    const Module& module = context_->module();
    const DeviceInfo& info = context_->record->info;
    if (info.max_allocation != 0 && bytes > info.max_allocation) {
      logger().debug("alloc_host: {} exceeds the device's largest allocation; ordinary memory",
                     format_bytes(bytes));
      return false;
    }
    auto raw_context = static_cast<xgpu_context>(context_->handle.get());
    xgpu_buffer raw_buffer = nullptr;
    xgpu_status status = module.table->buffer_create(
        raw_context, XGPU_MEM_READ_WRITE | XGPU_MEM_HOST_VISIBLE, bytes, &raw_buffer);
    if (status != XGPU_STATUS_SUCCESS) return refused("buffer_create", module, status);
    buffer_ = Handle<ObjectKind::buffer>::adopt(&module, raw_buffer);
    xgpu_queue raw_queue = nullptr;
    status = module.table->queue_create(raw_context, context_->record->raw, 0, &raw_queue);
    if (status != XGPU_STATUS_SUCCESS) return refused("queue_create", module, status);
    queue_ = Handle<ObjectKind::queue>::adopt(&module, raw_queue);
    xgpu_event raw_event = nullptr;
    void* pointer = nullptr;
    status = module.table->buffer_map(raw_queue, raw_buffer, XGPU_MAP_READ | XGPU_MAP_WRITE, 0,
                                      bytes, &pointer, nullptr, &raw_event);
    Handle<ObjectKind::event> map_event = Handle<ObjectKind::event>::adopt(&module, raw_event);
    if (status != XGPU_STATUS_SUCCESS || pointer == nullptr) {
      return refused("buffer_map", module, status);
    }
    data_ = pointer;
    return true;
  }

  bool refused(const char* call, const Module& module, xgpu_status status) {
    logger().debug("alloc_host: {} refused ({}); ordinary memory", call,
                   module.status_name(status));
    queue_ = {};
    buffer_ = {};
    return false;
  }

  void unmap_quietly() noexcept {
    const Module& module = context_->module();
    xgpu_event raw_event = nullptr;
    auto raw_queue = static_cast<xgpu_queue>(queue_.get());
    xgpu_status status = module.table->buffer_unmap(
        raw_queue, static_cast<xgpu_buffer>(buffer_.get()), data_, nullptr, &raw_event);
    if (status == XGPU_STATUS_SUCCESS && raw_event != nullptr) {
      module.table->event_wait(&raw_event, 1);
      release_object(&module, ObjectKind::event, raw_event);
    } else if (status != XGPU_STATUS_SUCCESS) {
      try {
        logger().warn("HostBuffer: unmapping its memory failed: {}", module.status_name(status));
      } catch (...) {
      }
    }
    // buffer_ and queue_ release themselves after this.
  }

  std::shared_ptr<ContextState> context_;
  Handle<ObjectKind::buffer> buffer_;
  Handle<ObjectKind::queue> queue_;
  void* data_ = nullptr;
  bool fallback_ = false;
  std::mutex mutex_;
  std::vector<Event> pending_;
};

std::shared_ptr<HostStorage> allocate_host(const std::shared_ptr<ContextState>& context,
                                           std::size_t bytes) {
  if (bytes == 0) return nullptr;  // an empty HostBuffer holds no memory
  return std::make_shared<HostStorage>(context, bytes, pageable_requested());
}

void* host_data(const HostStorage& storage) noexcept { return storage.data(); }
bool host_pinned(const HostStorage& storage) noexcept { return storage.pinned(); }
void host_track(HostStorage& storage, const Event& event) { storage.track(event); }

}  // namespace xgpu::detail
