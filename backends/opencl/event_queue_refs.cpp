// The per-event queue references of retain_queue_for_events; see event_queue_refs.hpp.
#include "event_queue_refs.hpp"

#include <cstdint>
#include <mutex>
#include <unordered_map>

#include "errors.hpp"

namespace xgpu::backend_opencl {
namespace {

struct HeldQueue {
  cl_command_queue queue = nullptr;
  uint32_t caller_references = 0;
};

struct Held {
  std::mutex mutex;
  std::unordered_map<cl_event, HeldQueue> events;
};

// Never destroyed: the core releases events after main() returns (its kernel cache writes
// at exit), and a destroyed map would lose their queues or worse.
Held& held() {
  static Held* instance = new Held;
  return *instance;
}

// Retains the queue and records it for the event; returns the queue of a stale entry (an
// address the driver reused) for the caller to release. Throws, holding nothing, on failure.
cl_command_queue record(cl_command_queue queue, cl_event event) {
  check(clRetainCommandQueue(queue), "clRetainCommandQueue");
  try {
    Held& h = held();
    std::lock_guard<std::mutex> lock(h.mutex);
    HeldQueue& entry = h.events[event];
    cl_command_queue stale = entry.queue;
    entry = {queue, 1};
    return stale;
  } catch (...) {
    clReleaseCommandQueue(queue);
    throw;
  }
}

}  // namespace

namespace detail {

void record_event_queue(cl_command_queue queue, cl_event event) {
  cl_command_queue stale = nullptr;
  try {
    stale = record(queue, event);
  } catch (...) {
    clReleaseEvent(event);
    throw;
  }
  if (stale != nullptr) clReleaseCommandQueue(stale);
}

void count_event_retain(cl_event event) {
  Held& h = held();
  std::lock_guard<std::mutex> lock(h.mutex);
  auto found = h.events.find(event);
  if (found != h.events.end()) ++found->second.caller_references;
}

}  // namespace detail

void event_released(cl_event event) {
  cl_command_queue queue = nullptr;
  {
    Held& h = held();
    std::lock_guard<std::mutex> lock(h.mutex);
    auto found = h.events.find(event);
    if (found == h.events.end() || --found->second.caller_references != 0) return;
    queue = found->second.queue;
    h.events.erase(found);
  }
  // Outside the map's lock: the queue's last release may finish its commands first.
  check(clReleaseCommandQueue(queue), "clReleaseCommandQueue");
}

}  // namespace xgpu::backend_opencl
