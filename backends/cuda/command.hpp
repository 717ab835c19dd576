// What every enqueue does around its own driver call: make the queue's context current, make
// the stream wait for the wait list's events, and, when the caller asks for an event, record
// it after the command (and a start event before it on a profiling queue).
#pragma once

#include "objects.hpp"
#include "xgpu/backend.h"

namespace xgpu::backend_cuda {

class Command {
 public:
  /// Validates the wait list (events of the queue's context only, unless `any_context`: a
  /// stream may wait on an event of any context, which only buffer_copy_peer's contract
  /// allows) and enqueues the waits.
  Command(Queue& queue, const xgpu_wait_v1* wait, xgpu_event* event, bool any_context = false);
  Command(const Command&) = delete;
  Command& operator=(const Command&) = delete;

  CUstream stream() const { return queue_.stream; }

  /// Records the completion event and hands it to the caller; call after the command.
  void enqueued();

 private:
  ScopedContext scope_;
  Queue& queue_;
  xgpu_event* event_out_;
  Ref<Event> event_;
};

}  // namespace xgpu::backend_cuda
