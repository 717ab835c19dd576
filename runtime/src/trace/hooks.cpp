// The runtime's hooks: each turns one call into a trace event (or a pending one).
#include "hooks.hpp"

#include "../objects.hpp"
#include "recorder.hpp"
#include "xgpu/queue.hpp"
#include "xgpu/range.hpp"

namespace xgpu::detail::trace {
namespace {

std::string range_text(const Range& range) {
  std::string text = "[";
  for (unsigned d = 0; d < range.dims; ++d) text += (d ? "," : "") + std::to_string(range.size[d]);
  return text + "]";
}

}  // namespace

void command(const Queue& queue, Command command, Event event) {
  const double returned = now_us();
  Recorder& recorder = Recorder::instance();
  std::unique_lock<std::mutex> lock(recorder.mutex);
  if (!recorder.is_open()) return;
  Pending pending{queue.raw(), recorder.track_of(queue), queue.profiling(), std::move(command),
                  returned,    std::move(event)};
  if (!pending.event) {
    recorder.write_command(pending, returned, true);
    return;
  }
  recorder.add_pending(std::move(pending), lock);
}

void launch(const Queue& queue, const std::string& kernel, const Launch& launch, double enqueued_us,
            Event event) {
  Command described{"launch", kernel, "\"global\":" + range_text(launch.global()), 0, enqueued_us};
  described.args += ",\"local\":";
  described.args += launch.local() ? range_text(*launch.local()) : "null";
  command(queue, std::move(described), std::move(event));
}

void transfer(const Queue& queue, const char* name, const char* direction, std::uint64_t bytes,
              double enqueued_us, Event event, bool blocking) {
  const bool fill = std::string(name) == "fill";
  Command described{fill ? "fill" : "copy", name,
                    "\"bytes\":" + std::to_string(bytes) + ",\"direction\":" + quoted(direction),
                    bytes, enqueued_us};
  command(queue, std::move(described), std::move(event));
  if (blocking) synchronised(queue);  // in order: everything before it is done too
}

void synchronised(const Queue& queue) {
  Recorder& recorder = Recorder::instance();
  std::unique_lock<std::mutex> lock(recorder.mutex);
  if (!recorder.is_open()) return;
  recorder.drain(queue.raw(), lock);
  if (recorder.is_open()) recorder.drain_completed();
}

void event_waited() {
  if (Recorder::waiting_on_this_thread()) return;
  Recorder& recorder = Recorder::instance();
  std::lock_guard<std::mutex> lock(recorder.mutex);
  if (recorder.is_open()) recorder.drain_completed();
}

void build(const DeviceRecord* device, const std::string& name, const char* cache,
           double begin_us) {
  const double end = now_us();
  Recorder& recorder = Recorder::instance();
  std::lock_guard<std::mutex> lock(recorder.mutex);
  if (!recorder.is_open()) return;
  const int pid = recorder.process_of(device).pid;
  const std::string hit = std::string(cache) == "source" ? "false" : "true";
  recorder.write_event("\"name\":" + quoted("build " + name) + R"(,"cat":"build","ph":"X","pid":)" +
                       std::to_string(pid) + R"(,"tid":1,"ts":)" + micros(begin_us) +
                       ",\"dur\":" + micros(end - begin_us) + R"(,"args":{"cache_hit":)" + hit +
                       R"(,"from":")" + cache + "\"}");
}

void memory(const DeviceRecord* device, const void* pool, std::uint64_t allocated,
            std::uint64_t reserved) {
  const double at = now_us();
  Recorder& recorder = Recorder::instance();
  std::lock_guard<std::mutex> lock(recorder.mutex);
  if (!recorder.is_open()) return;
  const int pid = recorder.process_of(device).pid;
  // One counter per context's pool, named in order of first use: "memory", "memory 2", ...
  const auto track = recorder.memory_tracks.emplace(pool, recorder.memory_tracks.size() + 1);
  const std::string name =
      track.first->second == 1 ? "memory" : "memory " + std::to_string(track.first->second);
  recorder.write_event(R"("name":")" + name + R"(","ph":"C","pid":)" + std::to_string(pid) +
                       ",\"ts\":" + micros(at) + R"(,"args":{"allocated":)" +
                       std::to_string(allocated) + ",\"reserved\":" + std::to_string(reserved) +
                       "}");
}

}  // namespace xgpu::detail::trace
