// Copies between contexts (copy_across.hpp). OpenCL cannot wait across contexts, so a staged
// copy is paced by the host: it waits for chunk i's read, enqueues its write on the
// destination queue, then reads chunk i + 1 while that write runs; it returns when the last
// write is done (its staging memory goes with it).
#include "copy_across.hpp"

#include <algorithm>
#include <mutex>
#include <optional>
#include <vector>

#include "internals.hpp"
#include "objects.hpp"
#include "trace/hooks.hpp"
#include "util/device_traits.hpp"

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

  // The source's bytes mapped for reading, after `after`; unmapped when the Mapped goes.
  class Mapped {
   public:
    Mapped(SourceReader& reader, std::size_t offset, std::size_t bytes,
           const std::vector<EventHandle>& after)
        : reader_(reader) {
      const std::vector<xgpu_event> raw = raw_events(after);
      const xgpu_wait_v1 wait{raw.data(), static_cast<std::uint32_t>(raw.size())};
      const Module& module = reader.module_;
      xgpu_event event = nullptr;
      check(module,
            module.table->buffer_map(static_cast<xgpu_queue>(reader.queue_.get()),
                                     static_cast<xgpu_buffer>(reader.src_.handle.get()),
                                     XGPU_MAP_READ, offset, bytes, &pointer_,
                                     raw.empty() ? nullptr : &wait, &event),
            "Queue::copy (mapping the source)", reader.src_.device);
      detail::Internals::event(EventHandle::adopt(&module, event),
                               "Queue::copy (mapping the source)", reader.src_.device)
          .wait();
    }
    Mapped(const Mapped&) = delete;
    Mapped& operator=(const Mapped&) = delete;
    ~Mapped() {
      const Module& module = reader_.module_;
      xgpu_event event = nullptr;
      if (module.table->buffer_unmap(static_cast<xgpu_queue>(reader_.queue_.get()),
                                     static_cast<xgpu_buffer>(reader_.src_.handle.get()), pointer_,
                                     nullptr, &event) == XGPU_STATUS_SUCCESS &&
          event != nullptr) {
        module.table->event_wait(&event, 1);
        release_object(&module, ObjectKind::event, event);
      }
    }
    const unsigned char* data() const { return static_cast<const unsigned char*>(pointer_); }

   private:
    SourceReader& reader_;
    void* pointer_ = nullptr;
  };

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
    return detail::Internals::event(EventHandle::adopt(&module_, event),
                                    "Queue::copy (reading the source)", src_.device);
  }

 private:
  const BufferCore& src_;
  const Module& module_;
  Handle<ObjectKind::queue> queue_;
};

// A source whose memory is host memory (a CPU device, an integrated GPU) needs no staging:
// mapped, it is read by the destination's write directly, one pass over the bytes instead of
// two. One mapped copy at a time: PoCL 3.1 crashes (in pocl_driver_map_mem) when two threads
// map pieces of one pool's buffers at once.
Event mapped_copy(Queue& queue, const BufferCore& src, const BufferCore& dst,
                  std::size_t src_offset, std::size_t dst_offset, std::size_t bytes,
                  const std::vector<EventHandle>& markers) {
  static std::mutex one_at_a_time;
  std::lock_guard<std::mutex> lock(one_at_a_time);
  SourceReader reader(src);
  SourceReader::Mapped mapped(reader, src_offset, bytes, markers);
  const Buffer<unsigned char> target = ext::typed<unsigned char>(Internals::untyped(dst));
  Event write = queue.write_async(target, mapped.data(), bytes, dst_offset);
  queue.flush();
  write.wait();  // before the unmap
  return write;
}

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
  for (std::size_t i = 0; i < std::min(steps, kStagedCopyStages); ++i)
    stages.push_back(queue.context().alloc_host<unsigned char>(chunk));
  const Buffer<unsigned char> target = ext::typed<unsigned char>(Internals::untyped(dst));

  std::vector<Event> reads(steps), writes(steps);
  // Chunk `step` into its stage, once the write that last used the stage is done.
  auto read = [&](std::size_t step) {
    HostBuffer<unsigned char>& stage = stages[step % stages.size()];
    if (step >= stages.size()) writes[step - stages.size()].wait();
    reads[step] = reader.read(src_offset + step * chunk, chunk_bytes(step), stage.data(),
                              step == 0 ? markers : std::vector<EventHandle>{});
    host_track(*stage.storage(), reads[step]);
  };
  // Reads run up to stages.size() - 1 chunks ahead of the writes.
  for (std::size_t step = 0; step + 1 < stages.size(); ++step) read(step);
  for (std::size_t step = 0; step < steps; ++step) {
    if (step + stages.size() - 1 < steps) read(step + stages.size() - 1);
    reads[step].wait();
    writes[step] = queue.write_async(target, stages[step % stages.size()], chunk_bytes(step),
                                     dst_offset + step * chunk);
    queue.flush();
  }
  // The stages are freed on return, and a HostBuffer's end waits for the copies using it:
  // wait here, so the caller is never held in a destructor, and the copy is done on return.
  writes[steps - 1].wait();
  return writes[steps - 1];
}

// One command of the module when it copies between its own contexts; nothing when it cannot.
std::optional<Event> peer_copy(Queue& queue, const BufferCore& src, const BufferCore& dst,
                               std::size_t src_offset, std::size_t dst_offset, std::size_t bytes,
                               const std::vector<EventHandle>& markers) {
  const ContextState& context = *detail::Internals::state(queue.context());
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
  Event done = detail::Internals::event(EventHandle::adopt(&module, event), kCall, dst.device);
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
  if (shares_host_memory(src.device->info))
    return mapped_copy(queue, src, dst, src_offset, dst_offset, bytes, markers);
  return staged_copy(queue, src, dst, src_offset, dst_offset, bytes, markers);
}

}  // namespace xgpu::detail
