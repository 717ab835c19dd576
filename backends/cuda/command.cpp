// The waits and events around one enqueued command (see command.hpp).
#include "command.hpp"

#include "driver.hpp"
#include "errors.hpp"
#include "handles.hpp"

namespace xgpu::backend_cuda {

Command::Command(Queue& queue, const xgpu_wait_v1* wait, xgpu_event* event, bool any_context)
    : scope_(*queue.context), queue_(queue), event_out_(event) {
  if (wait != nullptr && wait->count != 0) {
    if (wait->events == nullptr) fail(XGPU_STATUS_INVALID_VALUE, "wait list events are NULL");
    for (uint32_t i = 0; i < wait->count; ++i) {
      Event& waited = event_of(wait->events[i]);
      if (!any_context && waited.context.get() != queue.context.get()) {
        fail(XGPU_STATUS_INVALID_VALUE,
             "wait list event " + std::to_string(i) + " belongs to another context than the queue");
      }
      // Events are recorded when made, so waiting on one never waits on nothing.
      check(cu().cuStreamWaitEvent(queue.stream, waited.end, 0), "cuStreamWaitEvent");
    }
  }
  if (event_out_ == nullptr) return;
  event_ = Ref<Event>::adopt(new Event);
  event_->context = queue.context;
  event_->queue = Ref<Queue>::retain(&queue);
  event_->queued_host_ns = host_now_ns();
  const unsigned int flags = queue.profiling ? CU_EVENT_DEFAULT : CU_EVENT_DISABLE_TIMING;
  check(cu().cuEventCreate(&event_->end, flags), "cuEventCreate");
  if (queue.profiling) {
    check(cu().cuEventCreate(&event_->start, CU_EVENT_DEFAULT), "cuEventCreate");
    check(cu().cuEventRecord(event_->start, queue.stream), "cuEventRecord");
  }
}

void Command::enqueued() {
  if (!event_.get()) return;
  check(cu().cuEventRecord(event_->end, queue_.stream), "cuEventRecord");
  *event_out_ = handle_of<xgpu_event>(event_.release());
}

}  // namespace xgpu::backend_cuda
