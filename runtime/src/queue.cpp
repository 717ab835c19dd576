// Queue operations on buffers: bounds and context checks first, then one module call.
#include "xgpu/queue.hpp"

#include <cstring>
#include <vector>

#include "copy_across.hpp"
#include "internals.hpp"
#include "objects.hpp"
#include "queue_commands.hpp"
#include "trace/hooks.hpp"

namespace xgpu {
namespace {

using detail::BufferCore;

[[noreturn]] void out_of_range(const char* operation, std::size_t count, std::size_t offset,
                               std::size_t size) {
  throw Error(Errc::out_of_range,
              std::string(operation) + " of " + std::to_string(count) + " element(s) at offset " +
                  std::to_string(offset) + " reaches past the end of a buffer of " +
                  std::to_string(size) + " element(s); nothing was transferred",
              operation);
}

// Resolves `all` and checks [offset, offset + count) lies inside the buffer.
std::size_t checked_count(const char* operation, const BufferCore& buffer, std::size_t element_size,
                          std::size_t count, std::size_t offset) {
  const std::size_t size = buffer.bytes / element_size;
  if (offset > size) out_of_range(operation, count == all ? 0 : count, offset, size);
  if (count == all) return size - offset;
  if (count > size - offset) out_of_range(operation, count, offset, size);
  return count;
}

// The Event of a command of `queue`: `command` (static text) and the device name it in the
// error of one that fails on the device; the queue keeps it among its recent commands.
Event adopt_event(const Queue& queue, const detail::ContextState& context, xgpu_event raw,
                  const char* command) {
  Event event = detail::Internals::event(
      detail::Handle<detail::ObjectKind::event>::adopt(&context.module(), raw), command,
      context.record);
  detail::note_command(queue, event);
  return event;
}

}  // namespace

Queue::Queue(Context context, detail::Handle<detail::ObjectKind::queue> handle, bool profiling)
    : context_(std::move(context)),
      handle_(std::move(handle)),
      profiling_(profiling),
      commands_(std::make_shared<detail::QueueCommands>()) {}

namespace {

// Common checks of every queue operation: a live queue, and a buffer of its context.
const detail::ContextState& checked_context(const Queue& queue, const BufferCore& buffer,
                                            const char* operation) {
  if (!queue) {
    throw Error(Errc::invalid_handle,
                std::string(operation) + " on an empty Queue (default-constructed or moved-from)",
                operation);
  }
  const auto& context = *detail::Internals::state(queue.context());
  if (!buffer.context) {
    throw Error(
        Errc::invalid_handle,
        std::string(operation) + ": the buffer is empty (default-constructed or moved-from)",
        operation);
  }
  if (buffer.context != context.handle.get()) {
    throw Error(Errc::context_mismatch,
                std::string(operation) +
                    ": the buffer belongs to another context than the "
                    "queue's (allocate it from the queue's Context)",
                operation);
  }
  return context;
}

// Two views of one allocation may share bytes; OpenCL refuses such a copy with a bare status
// (CL_MEM_COPY_OVERLAP), and no driver defines its result.
void check_no_overlap(const BufferCore& src, const BufferCore& dst, std::size_t src_offset,
                      std::size_t dst_offset, std::size_t bytes) {
  if (src.allocation == nullptr || src.allocation != dst.allocation) return;
  const std::size_t from = src.start + src_offset, to = dst.start + dst_offset;
  if (from < to + bytes && to < from + bytes) {
    throw Error(Errc::invalid_argument,
                "Queue::copy: the source (bytes " + std::to_string(from) + " to " +
                    std::to_string(from + bytes) + ") and the destination (bytes " +
                    std::to_string(to) + " to " + std::to_string(to + bytes) +
                    ") overlap in one buffer; copy through a scratch buffer",
                "Queue::copy");
  }
}

}  // namespace

Event Queue::transfer(Direction direction, const BufferCore& buffer, std::size_t element_size,
                      void* host, std::size_t count, std::size_t offset, bool blocking) {
  const char* operation = direction == Direction::write ? "Queue::write" : "Queue::read";
  const auto& context = checked_context(*this, buffer, operation);
  count = checked_count(operation, buffer, element_size, count, offset);
  if (count == 0) return Event();
  if (!host) {
    throw Error(Errc::invalid_argument, std::string(operation) + ": the host pointer is null",
                operation);
  }
  const detail::Module& module = context.module();
  auto queue = static_cast<xgpu_queue>(handle_.get());
  auto raw_buffer = static_cast<xgpu_buffer>(buffer.handle.get());
  detail::before_command(buffer, module, queue);
  xgpu_event event = nullptr;
  const double traced_at = detail::trace::active() ? detail::trace::now_us() : -1;
  xgpu_event* event_out = blocking && traced_at < 0 ? nullptr : &event;
  xgpu_status status = direction == Direction::write
                           ? module.table->buffer_write(
                                 queue, raw_buffer, blocking, buffer.offset + offset * element_size,
                                 count * element_size, host, nullptr, event_out)
                           : module.table->buffer_read(
                                 queue, raw_buffer, blocking, buffer.offset + offset * element_size,
                                 count * element_size, host, nullptr, event_out);
  detail::check(module, status, operation, context.record);
  Event done = event ? adopt_event(*this, context, event, operation) : Event();
  if (!blocking && detail::touches_pool(buffer))
    buffer.allocation->note_use(&module, handle_.get());
  if (traced_at >= 0) {
    detail::trace::transfer(*this, direction == Direction::write ? "write" : "read",
                            direction == Direction::write ? "host to device" : "device to host",
                            count * element_size, traced_at, done, blocking);
  }
  return blocking ? Event() : done;
}

Event Queue::copy_bytes(const BufferCore& src, const BufferCore& dst, std::size_t element_size,
                        std::size_t count, std::size_t src_offset, std::size_t dst_offset) {
  // The destination must be of this queue's context; the source may be of another (a copy
  // between devices: copy_across.hpp).
  if (*this && src.context == detail::Internals::state(context_)->handle.get() &&
      dst.context != nullptr && dst.context != src.context) {
    throw Error(Errc::context_mismatch,
                "Queue::copy: the destination belongs to another context than the queue's; a "
                "copy between contexts runs on a queue of the destination's context",
                "Queue::copy");
  }
  const auto& context = checked_context(*this, dst, "Queue::copy");
  if (!src.context) {
    throw Error(Errc::invalid_handle,
                "Queue::copy: the source buffer is empty (default-constructed or moved-from)",
                "Queue::copy");
  }
  const bool across = src.context != context.handle.get();
  if (count == all) {
    count = checked_count("Queue::copy", src, element_size, all, src_offset);
    checked_count("Queue::copy", dst, element_size, count, dst_offset);
  } else {
    checked_count("Queue::copy", src, element_size, count, src_offset);
    checked_count("Queue::copy", dst, element_size, count, dst_offset);
  }
  if (count == 0) return Event();
  if (across) {
    // Buffers of two contexts never share memory: nothing to check for overlap.
    return detail::copy_across_contexts(*this, src, dst, src.offset + src_offset * element_size,
                                        dst.offset + dst_offset * element_size,
                                        count * element_size);
  }
  check_no_overlap(src, dst, src_offset * element_size, dst_offset * element_size,
                   count * element_size);
  const detail::Module& module = context.module();
  xgpu_event event = nullptr;
  const double traced_at = detail::trace::active() ? detail::trace::now_us() : -1;
  detail::before_command(src, module, handle_.get());
  detail::before_command(dst, module, handle_.get());
  detail::check(
      module,
      module.table->buffer_copy(
          static_cast<xgpu_queue>(handle_.get()), static_cast<xgpu_buffer>(src.handle.get()),
          static_cast<xgpu_buffer>(dst.handle.get()), src.offset + src_offset * element_size,
          dst.offset + dst_offset * element_size, count * element_size, nullptr, &event),
      "Queue::copy", context.record);
  Event done = adopt_event(*this, context, event, "Queue::copy");
  if (detail::touches_pool(src)) src.allocation->note_use(&module, handle_.get());
  if (detail::touches_pool(dst)) dst.allocation->note_use(&module, handle_.get());
  if (traced_at >= 0) {
    detail::trace::transfer(*this, "copy", "device to device", count * element_size, traced_at,
                            done, false);
  }
  return done;
}

Event Queue::fill_bytes(const BufferCore& dst, const void* pattern, std::size_t element_size,
                        std::size_t count, std::size_t offset) {
  const auto& context = checked_context(*this, dst, "Queue::fill");
  count = checked_count("Queue::fill", dst, element_size, count, offset);
  if (count == 0) return Event();
  const detail::Module& module = context.module();
  xgpu_event event = nullptr;
  // OpenCL fills with power-of-two patterns up to 128 bytes; other sizes go by a write.
  bool power_of_two = element_size && !(element_size & (element_size - 1)) && element_size <= 128;
  if (!power_of_two) {
    std::vector<unsigned char> host(count * element_size);
    for (std::size_t i = 0; i < count; ++i) {
      std::memcpy(host.data() + i * element_size, pattern, element_size);
    }
    transfer(Direction::write, dst, element_size, host.data(), count, offset, true);
    return Event();
  }
  const double traced_at = detail::trace::active() ? detail::trace::now_us() : -1;
  detail::before_command(dst, module, handle_.get());
  detail::check(module,
                module.table->buffer_fill(static_cast<xgpu_queue>(handle_.get()),
                                          static_cast<xgpu_buffer>(dst.handle.get()), pattern,
                                          element_size, dst.offset + offset * element_size,
                                          count * element_size, nullptr, &event),
                "Queue::fill", context.record);
  Event done = adopt_event(*this, context, event, "Queue::fill");
  if (detail::touches_pool(dst)) dst.allocation->note_use(&module, handle_.get());
  if (traced_at >= 0) {
    detail::trace::transfer(*this, "fill", "fill", count * element_size, traced_at, done, false);
  }
  return done;
}

void* Queue::map_bytes(const BufferCore& buffer, std::size_t element_size, std::size_t& count,
                       std::size_t offset) {
  const auto& context = checked_context(*this, buffer, "Queue::map");
  count = checked_count("Queue::map", buffer, element_size, count, offset);
  if (count == 0) return nullptr;
  const detail::Module& module = context.module();
  void* pointer = nullptr;
  xgpu_event raw_event = nullptr;
  detail::before_command(buffer, module, handle_.get());
  detail::check(module,
                module.table->buffer_map(static_cast<xgpu_queue>(handle_.get()),
                                         static_cast<xgpu_buffer>(buffer.handle.get()),
                                         XGPU_MAP_READ | XGPU_MAP_WRITE,
                                         buffer.offset + offset * element_size,
                                         count * element_size, &pointer, nullptr, &raw_event),
                "Queue::map", context.record);
  adopt_event(*this, context, raw_event, "Queue::map").wait();
  return pointer;
}

void Queue::unmap_bytes(const BufferCore& buffer, void* pointer) {
  const auto& context = checked_context(*this, buffer, "Queue::unmap");
  const detail::Module& module = context.module();
  xgpu_event raw_event = nullptr;
  detail::before_command(buffer, module, handle_.get());
  detail::check(module,
                module.table->buffer_unmap(static_cast<xgpu_queue>(handle_.get()),
                                           static_cast<xgpu_buffer>(buffer.handle.get()), pointer,
                                           nullptr, &raw_event),
                "Queue::unmap", context.record);
  // Waiting makes the host's writes visible to whatever the caller enqueues next, also on
  // another queue.
  adopt_event(*this, context, raw_event, "Queue::unmap").wait();
}

void Queue::finish() {
  if (!*this) throw Error(Errc::invalid_handle, "Queue::finish on an empty Queue", "Queue::finish");
  const auto& context = *detail::Internals::state(context_);
  const xgpu_status status =
      context.module().table->queue_finish(static_cast<xgpu_queue>(handle_.get()));
  // Which command failed, when one of the recent ones that made an Event did (also where the
  // driver's finish says nothing of it).
  std::array<Event, detail::QueueCommands::kKept> done;
  commands_->take(done);
  for (const Event& event : done) {
    const std::int32_t failed = event.failure();
    if (failed != 0) event.command_failed(failed, "Queue::finish");
  }
  if (status != XGPU_STATUS_SUCCESS) {
    Error::Details details =
        detail::backend_error_details(context.module(), status, "Queue::finish", context.record);
    details.message += " (none of the queue's last " +
                       std::to_string(detail::QueueCommands::kKept) +
                       " commands that made an Event failed; Queue::submit makes none)";
    throw Error(std::move(details));
  }
  if (detail::trace::active()) detail::trace::synchronised(*this);
}

void Queue::flush() {
  if (!*this) throw Error(Errc::invalid_handle, "Queue::flush on an empty Queue", "Queue::flush");
  const auto& context = *detail::Internals::state(context_);
  detail::check(context.module(),
                context.module().table->queue_flush(static_cast<xgpu_queue>(handle_.get())),
                "Queue::flush", context.record);
}

Event Queue::transfer_host(Direction direction, const BufferCore& buffer, std::size_t element_size,
                           detail::HostStorage* storage, std::size_t host_count, std::size_t count,
                           std::size_t offset, std::size_t host_offset) {
  const char* operation = direction == Direction::write ? "Queue::write_async (from a HostBuffer)"
                                                        : "Queue::read_async (into a HostBuffer)";
  checked_context(*this, buffer, operation);
  count = checked_count(operation, buffer, element_size, count, offset);
  if (host_offset > host_count || count > host_count - host_offset) {
    throw Error(Errc::out_of_range,
                std::string(operation) + " of " + std::to_string(count) +
                    " element(s) at host offset " + std::to_string(host_offset) +
                    " reaches past the end of a HostBuffer of " + std::to_string(host_count) +
                    " element(s); nothing was transferred",
                operation);
  }
  if (count == 0) return Event();
  auto* host =
      static_cast<unsigned char*>(detail::host_data(*storage)) + host_offset * element_size;
  Event event = transfer(direction, buffer, element_size, host, count, offset, false);
  detail::host_track(*storage, event);
  return event;
}

Event Queue::barrier(const char* operation, const Event* events, std::size_t count,
                     bool keep_event) {
  if (!*this) {
    throw Error(Errc::invalid_handle, std::string(operation) + " on an empty Queue", operation);
  }
  const auto& context = *detail::Internals::state(context_);
  const detail::Module& module = context.module();
  if (!module.has(&xgpu_backend_v1::queue_barrier)) {
    throw Error(Errc::unsupported,
                std::string(operation) + ": the '" + module.name +
                    "' backend module predates queue_barrier (cross-queue ordering); "
                    "use Event::wait() on the host instead",
                operation);
  }
  std::vector<xgpu_event> raw;
  for (std::size_t i = 0; i < count; ++i) {
    if (!events[i]) continue;  // an empty Event is complete
    if (events[i].module() != &module) {
      throw Error(Errc::context_mismatch,
                  std::string(operation) + ": the event (" + events[i].command() +
                      ") is of another backend than the queue's; wait for it on the host "
                      "(Event::wait) instead",
                  operation);
    }
    raw.push_back(static_cast<xgpu_event>(events[i].raw()));
  }
  if (raw.empty() && !keep_event) return Event();  // waiting on nothing enqueues nothing
  const xgpu_wait_v1 wait{raw.data(), static_cast<std::uint32_t>(raw.size())};
  xgpu_event event = nullptr;
  xgpu_status status = module.table->queue_barrier(static_cast<xgpu_queue>(handle_.get()), &wait,
                                                   keep_event ? &event : nullptr);
  if (status == XGPU_STATUS_INVALID_VALUE && !raw.empty()) {
    // The one bad value left once the core's checks passed: an event of another context.
    Error::Details details =
        detail::backend_error_details(module, status, operation, context.record);
    details.code = Errc::context_mismatch;
    details.message = std::string(operation) + ": the event (" + events[0].command() +
                      ") belongs to another context than the queue's, and OpenCL cannot make "
                      "a queue wait across contexts; wait for it on the host (Event::wait) "
                      "instead";
    throw Error(std::move(details));
  }
  detail::check(module, status, operation, context.record);
  return keep_event ? adopt_event(*this, context, event, operation) : Event();
}

void Queue::wait(const Event& event) { barrier("Queue::wait", &event, 1, false); }

Event Queue::marker() { return barrier("Queue::marker", nullptr, 0, true); }

}  // namespace xgpu
