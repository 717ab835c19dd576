// Contexts, queues and allocation.
#include <cstdint>

#include "internals.hpp"
#include "log.hpp"
#include "objects.hpp"
#include "trace/hooks.hpp"
#include "xgpu/byte_size.hpp"
#include "xgpu/queue.hpp"

namespace xgpu {

namespace detail {
void throw_empty_handle(const char* what) {
  throw Error(Errc::invalid_handle,
              std::string("this ") + what + " is empty (default-constructed or moved-from)", what);
}
}  // namespace detail

Context::Context(const Device& device) {
  if (!device) {
    throw Error(Errc::invalid_handle, "cannot make a Context from an empty Device", "Context");
  }
  // The environment's allocator settings are refused before the driver is asked for anything.
  const detail::AllocatorKind allocator = detail::allocator_from_environment();
  const std::uint64_t limit =
      detail::memory_limit_from_environment(detail::Internals::record(device)->info.global_memory);
  auto state = std::make_shared<detail::ContextState>();
  state->device = device;
  state->record = detail::Internals::record(device);
  const detail::Module& module = state->module();
  xgpu_context raw = nullptr;
  detail::check(module, module.table->context_create(state->record->raw, &raw),
                "creating a context", state->record);
  state->handle = detail::Handle<detail::ObjectKind::context>::adopt(&module, raw);
  state->pool =
      std::make_shared<detail::MemoryPool>(state->record, state->handle, allocator, limit);
  state_ = std::move(state);
}

const std::shared_ptr<detail::ContextState>& Context::state() const {
  detail::state_of(state_, "Context");
  return state_;
}

const Device& Context::device() const { return detail::state_of(state_, "Context").device; }

Queue Context::queue(QueueOptions options) const {
  const auto& state = detail::state_of(state_, "Context");
  const detail::Module& module = state.module();
  xgpu_queue raw = nullptr;
  // While a trace runs, every queue is profiled (as Nsight Systems and PyTorch's profiler
  // do): the trace then holds the device's own times of every command, not the host's.
  const bool profiling = options.profiling || detail::trace::active();
  std::uint32_t flags = profiling ? XGPU_QUEUE_PROFILING : 0;
  detail::check(module,
                module.table->queue_create(static_cast<xgpu_context>(state.handle.get()),
                                           state.record->raw, flags, &raw),
                "creating a queue", state.record);
  return detail::Internals::queue(
      *this, detail::Handle<detail::ObjectKind::queue>::adopt(&module, raw), profiling);
}

std::size_t Context::checked_bytes(std::size_t count, std::size_t element_size) {
  if (element_size != 0 && count > SIZE_MAX / element_size) {
    throw Error(Errc::allocation_too_large,
                "cannot allocate " + std::to_string(count) + " elements of " +
                    std::to_string(element_size) + " bytes: the size overflows",
                "Context::alloc");
  }
  return count * element_size;
}

MemoryStats Context::memory_stats() const {
  return detail::state_of(state_, "Context").pool->stats();
}

void Context::reset_peak_stats() const { detail::state_of(state_, "Context").pool->reset_peaks(); }

void Context::empty_cache() const { detail::state_of(state_, "Context").pool->empty_cache(); }

void Context::set_memory_limit(std::uint64_t bytes) const {
  detail::state_of(state_, "Context").pool->set_limit(bytes);
}

namespace detail {

UntypedBuffer allocate(const ContextState& context, std::size_t bytes, Access access,
                       bool host_visible) {
  BufferCore core;
  core.context = context.handle.get();
  core.device = context.record;
  if (bytes == 0)
    return Internals::untyped(
        std::move(core));  // OpenCL refuses size 0: an empty buffer has no object
  const DeviceInfo& info = context.record->info;
  if (info.max_allocation != 0 && bytes > info.max_allocation) {
    throw Error(Errc::allocation_too_large,
                "cannot allocate " + format_bytes(bytes) + " (" + std::to_string(bytes) +
                    " bytes) on " + info.name + ": its largest allocation is " +
                    format_bytes(info.max_allocation),
                "Context::alloc");
  }
  std::uint32_t flags = static_cast<std::uint32_t>(access);
  if (host_visible) flags |= XGPU_MEM_HOST_VISIBLE;
  return Internals::untyped(context.pool->allocate(bytes, flags));
}

void log_unmap_failure(const char* what) noexcept {
  try {
    logger().error("unmapping a buffer failed: {}", what);
  } catch (...) {
  }
}

}  // namespace detail
}  // namespace xgpu
