// What the runtime calls to put its work in the trace (xgpu/trace.hpp). Every call site
// tests trace::active() first: with no trace running that is one relaxed atomic load, so
// the dispatch path is unchanged.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include "xgpu/event.hpp"

namespace xgpu {
class Queue;
class Launch;
namespace detail {
struct DeviceRecord;
struct ContextState;
}  // namespace detail
}  // namespace xgpu

namespace xgpu::detail::trace {

enum : int { kUnread = 0, kOff = 1, kOn = 2 };
/// kUnread until XGPU_TRACE has been read (once, at the first hook), then kOff or kOn.
extern std::atomic<int> g_state;
bool start_from_environment();  ///< reads XGPU_TRACE; true when a trace now runs

inline bool active() {
  const int state = g_state.load(std::memory_order_relaxed);
  return state == kOn || (state == kUnread && start_from_environment());
}

/// Microseconds since the trace started, on the host's steady clock.
double now_us();

/// What a copy, fill or launch was; `args` is a JSON object's members ("\"bytes\":4").
struct Command {
  const char* kind;  ///< "launch", "copy", "fill"
  std::string name;  ///< "kernel saxpy", "write", "read", "copy", "fill"
  std::string args;
  std::uint64_t bytes = 0;  ///< for copies and fills: GB/s is written with the times
  double enqueued_us = 0;   ///< host time before the enqueue call
};

/// A command on `queue`. With its Event, it is written once the event completes (at the
/// next synchronisation point of the queue, or at stop); without one (a blocking call
/// that returned), at once with host times.
void command(const Queue& queue, Command command, Event event);
/// A launch: the kernel's name and ranges, then command().
void launch(const Queue& queue, const std::string& kernel, const Launch& launch, double enqueued_us,
            Event event);
/// A write, read, copy or fill of `bytes`; `direction` names it for the summary ("host to
/// device", ...). A blocking one is written at once, with its device times when it has an
/// event.
void transfer(const Queue& queue, const char* name, const char* direction, std::uint64_t bytes,
              double enqueued_us, Event event, bool blocking);
/// The queue finished (or a blocking read returned): its pending commands are complete, and
/// those of other queues that have completed meanwhile are written too (they may have been
/// waited for through this queue's).
void synchronised(const Queue& queue);
/// An Event was waited for: the pending commands that have completed are written (with their
/// device times while the drivers are there; at exit they no longer are).
void event_waited();
/// A build: `cache` says where the program came from ("memory", "disk", "source").
void build(const DeviceRecord* device, const std::string& name, const char* cache, double begin_us);
/// The allocator's byte counts for one context's pool (`pool` tells the contexts of one
/// device apart), after every allocation and free: a counter track in the device's process.
void memory(const DeviceRecord* device, const void* pool, std::uint64_t allocated,
            std::uint64_t reserved);

}  // namespace xgpu::detail::trace
