// Copies between contexts (copy_across.hpp). OpenCL cannot wait across contexts, so a staged
// copy is paced by the host: it waits for chunk i's read, enqueues its write on the
// destination queue, then reads chunk i + 1 while that write runs.
#include "copy_across.hpp"

#include <algorithm>
#include <optional>
#include <vector>

#include "objects.hpp"
#include "trace/hooks.hpp"

namespace xgpu::detail {
namespace {

using EventHandle = Handle<ObjectKind::event>;

const char* const kCall = "Queue::copy";

// An event per queue that has used src: each completes once that queue's commands so far
// (src's last use there among them) have. A buffer xgpu did not allocate records no queue.
std::vector<EventHandle> source_markers(const BufferCore& src) {
  std::vector<EventHandle> markers;
  if (src.allocation == nullptr) return markers;
  for (const auto& queue : src.allocation->queues_in_use()) {
    if (EventHandle marker = marker_of(queue)) markers.push_back(std::move(marker));
  }
  return markers;
}

std::vector<xgpu_event> raw_events(const std::vector<EventHandle>& events) {
  std::vector<xgpu_event> raw;
  for (const EventHandle& event : events) raw.push_back(static_cast<xgpu_event>(event.get()));
  return raw;
}

// Reads chunks of the source on a queue of its own context, made for this copy.
class SourceReader {
 public:
  explicit SourceReader(const BufferCore& src) : src_(src), module_(*src.device->module) {
    xgpu_queue raw = nullptr;
    check(module_,
          module_.table->queue_create(static_cast<xgpu_context>(src.context), src.device->raw, 0,
                                      &raw),
          "Queue::copy (a queue on the source's context)", src.device);
    queue_ = Handle<ObjectKind::queue>::adopt(&module_, raw);
    // A pooled block whose previous user may still run: after it, on the device.
    order_after_previous_user(src, module_, queue_.get());
  }

  Event read(std::size_t offset, std::size_t bytes, void* host,
             const std::vector<EventHandle>& after) {
    const std::vector<xgpu_event> raw = raw_events(after);
    const xgpu_wait_v1 wait{raw.data(), static_cast<std::uint32_t>(raw.size())};
    const auto queue = static_cast<xgpu_queue>(queue_.get());
    xgpu_event event = nullptr;
    check(module_,
          module_.table->buffer_read(queue, static_cast<xgpu_buffer>(src_.handle.get()), 0, offset,
                                     bytes, host, raw.empty() ? nullptr : &wait, &event),
          "Queue::copy (reading the source)", src_.device);
    // Submitted now: the host waits for it before anything else is enqueued here.
    module_.table->queue_flush(queue);
    return Event(EventHandle::adopt(&module_, event), "Queue::copy (reading the source)");
  }

 private:
  const BufferCore& src_;
  const Module& module_;
  Handle<ObjectKind::queue> queue_;
};

Event staged_copy(Queue& queue, const BufferCore& src, const BufferCore& dst,
                  std::size_t src_offset, std::size_t dst_offset, std::size_t bytes,
                  const std::vector<EventHandle>& markers) {
  SourceReader reader(src);
  const std::size_t chunk = std::min(bytes, kStagedCopyChunk);
  const std::size_t steps = (bytes + chunk - 1) / chunk;
  auto chunk_bytes = [&](std::size_t step) { return std::min(chunk, bytes - step * chunk); };
  // Pinned where the destination's driver offers it: its writes are the DMA side that needs
  // it most (a read into it is a copy either way on every driver the tests know).
  std::vector<HostBuffer<unsigned char>> stages;
  stages.push_back(queue.context().alloc_host<unsigned char>(chunk));
  if (steps > 1) stages.push_back(queue.context().alloc_host<unsigned char>(chunk));
  const Buffer<unsigned char> target{dst};

  Event read = reader.read(src_offset, chunk_bytes(0), stages[0].data(), markers);
  host_track(*stages[0].storage(), read);
  Event write, previous_write;
  for (std::size_t step = 0; step < steps; ++step) {
    read.wait();
    write =
        queue.write_async(target, stages[step % 2], chunk_bytes(step), dst_offset + step * chunk);
    queue.flush();
    if (step + 1 < steps) {
      // The other stage is free once the write that used it (two steps back) is done.
      if (previous_write) previous_write.wait();
      HostBuffer<unsigned char>& next = stages[(step + 1) % 2];
      read = reader.read(src_offset + (step + 1) * chunk, chunk_bytes(step + 1), next.data(), {});
      host_track(*next.storage(), read);
    }
    previous_write = write;
  }
  return write;
}

// One command of the module when it copies between its own contexts; nothing when it cannot.
std::optional<Event> peer_copy(Queue& queue, const BufferCore& src, const BufferCore& dst,
                               std::size_t src_offset, std::size_t dst_offset, std::size_t bytes,
                               const std::vector<EventHandle>& markers) {
  const ContextState& context = *queue.context().state();
  const Module& module = context.module();
  if (src.device->module != &module || !module.has(&xgpu_backend_v1::buffer_copy_peer))
    return std::nullopt;
  // The previous user of a pooled source block runs on another context: wait on the host
  // (rare: only a block handed out while its last user's commands were still pending).
  if (touches_pool(src) && src.allocation->follows_previous_user())
    src.allocation->wait_for_previous_user();
  before_command(dst, module, queue.raw());
  const std::vector<xgpu_event> raw = raw_events(markers);
  const xgpu_wait_v1 wait{raw.data(), static_cast<std::uint32_t>(raw.size())};
  const double traced_at = trace::active() ? trace::now_us() : -1;
  xgpu_event event = nullptr;
  const xgpu_status status = module.table->buffer_copy_peer(
      static_cast<xgpu_queue>(queue.raw()), static_cast<xgpu_buffer>(src.handle.get()),
      static_cast<xgpu_buffer>(dst.handle.get()), src_offset, dst_offset, bytes,
      raw.empty() ? nullptr : &wait, &event);
  if (status == XGPU_STATUS_UNSUPPORTED) return std::nullopt;
  check(module, status, "Queue::copy (peer)", context.record);
  Event done(EventHandle::adopt(&module, event), kCall);
  if (touches_pool(dst)) dst.allocation->note_use(&module, queue.raw());
  if (traced_at >= 0) trace::transfer(queue, "copy", "peer", bytes, traced_at, done, false);
  return done;
}

}  // namespace

Event copy_across_contexts(Queue& queue, const BufferCore& src, const BufferCore& dst,
                           std::size_t src_offset, std::size_t dst_offset, std::size_t bytes) {
  const std::vector<EventHandle> markers = source_markers(src);
  if (std::optional<Event> done =
          peer_copy(queue, src, dst, src_offset, dst_offset, bytes, markers))
    return *done;
  return staged_copy(queue, src, dst, src_offset, dst_offset, bytes, markers);
}

}  // namespace xgpu::detail
