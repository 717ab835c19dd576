// The finish_queues_before_binary workaround (quirks.cpp): on a platform with the quirk, the
// module records every queue the caller holds, so that a program binary can be fetched only
// once the platform's queues have finished. Every caller reference passes through the module
// (queue_create hands queues out, retain and release count them), so the count here is the
// caller's, exact without asking the driver.
#pragma once

#include "cl.hpp"
#include "quirk_platforms.hpp"

namespace xgpu::opencl {

namespace detail {
void count_queue_reference(cl_command_queue queue);
void drop_queue_reference(cl_command_queue queue);
void finish_queues_of(const void* handle);
}  // namespace detail

inline bool records_queues(const void* handle) noexcept {
  return quirk_on(QuirkId::kFinishQueuesBeforeBinary, handle);
}

/// The caller received or retained a reference to `queue` (after the driver's call succeeded).
inline void queue_referenced(cl_command_queue queue) {
  if (records_queues(queue)) detail::count_queue_reference(queue);
}

/// The caller is about to drop a reference to `queue`: call before clReleaseCommandQueue,
/// after which reading the handle may read freed memory.
inline void queue_unreferencing(cl_command_queue queue) {
  if (records_queues(queue)) detail::drop_queue_reference(queue);
}

/// Before fetching a binary of `program` while holding the compile lock: flushes, then
/// finishes every recorded queue of the program's platform, when that platform has the quirk.
inline void finish_queues_before_binary(cl_program program) {
  if (records_queues(program)) detail::finish_queues_of(program);
}

}  // namespace xgpu::opencl
