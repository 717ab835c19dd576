// The retain_queue_for_events workaround (known_drivers.def): on a platform whose events do not
// keep their queue alive, the module holds one queue reference per event it hands out, for as long
// as the caller holds that event. Every caller reference passes through the module (enqueue
// entries hand events out, retain and release count them), so the count here is exact without
// asking the driver, whose own count includes references it keeps while the command runs.
#pragma once

#include "cl.hpp"
#include "quirk_platforms.hpp"

namespace xgpu::backend_opencl {

namespace detail {
void record_event_queue(cl_command_queue queue, cl_event event);
void count_event_retain(cl_event event);
}  // namespace detail

/// Whether `event` is of a platform with the quirk. Ask before clReleaseEvent: reading the
/// handle afterwards may read freed memory.
inline bool holds_queue_for(cl_event event) noexcept {
  return quirk_on(Workaround::retain_queue_for_events, event);
}

/// After an enqueue on `queue` succeeded: when `event` (the call's event out-parameter, may be
/// NULL) received an event of a platform with the quirk, retains the queue for it. On failure
/// releases the event and throws, so the caller gets no event whose queue may vanish.
inline void hold_queue_for_event(cl_command_queue queue, const cl_event* event) {
  if (event != nullptr && holds_queue_for(*event)) detail::record_event_queue(queue, *event);
}

/// The caller took one more reference to `event` (after clRetainEvent succeeded).
inline void event_retained(cl_event event) {
  if (holds_queue_for(event)) detail::count_event_retain(event);
}

/// The caller dropped one reference to an event for which holds_queue_for() was true (after
/// clReleaseEvent succeeded); the last one releases the queue held for it. Reads only the
/// module's own record, never the event.
void event_released(cl_event event);

}  // namespace xgpu::backend_opencl
