// The queue record of finish_queues_before_binary; see tracked_queues.hpp.
#include "tracked_queues.hpp"

#include <cstdint>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "errors.hpp"

namespace xgpu::opencl {
namespace {

struct Recorded {
  std::mutex mutex;
  std::unordered_map<cl_command_queue, uint32_t> caller_references;
};

// Never destroyed: the core releases queues after main() returns.
Recorded& recorded() {
  static Recorded* instance = new Recorded;
  return *instance;
}

// The ICD dispatch table every object of one driver begins with (quirk_platforms.hpp).
const void* dispatch_of(const void* handle) { return *static_cast<const void* const*>(handle); }

}  // namespace

namespace detail {

void count_queue_reference(cl_command_queue queue) {
  Recorded& r = recorded();
  std::lock_guard<std::mutex> lock(r.mutex);
  ++r.caller_references[queue];
}

void drop_queue_reference(cl_command_queue queue) {
  Recorded& r = recorded();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto found = r.caller_references.find(queue);
  if (found != r.caller_references.end() && --found->second == 0) {
    r.caller_references.erase(found);
  }
}

void finish_queues_of(const void* handle) {
  // Retained under the record's lock, so that no queue dies while it is finished here: a
  // caller's last release leaves the record before it reaches the driver.
  std::vector<cl_command_queue> queues;
  {
    Recorded& r = recorded();
    std::lock_guard<std::mutex> lock(r.mutex);
    queues.reserve(r.caller_references.size());
    for (const auto& entry : r.caller_references) {
      if (dispatch_of(entry.first) != dispatch_of(handle)) continue;
      if (clRetainCommandQueue(entry.first) == CL_SUCCESS) queues.push_back(entry.first);
    }
  }
  // Every queue flushed before any is waited for: a command waiting for another queue's
  // event cannot then wait for a command its driver was never given.
  cl_int status = CL_SUCCESS;
  for (cl_command_queue queue : queues) {
    cl_int flushed = clFlush(queue);
    if (status == CL_SUCCESS) status = flushed;
  }
  for (cl_command_queue queue : queues) {
    cl_int finished = clFinish(queue);
    if (status == CL_SUCCESS) status = finished;
  }
  for (cl_command_queue queue : queues) clReleaseCommandQueue(queue);
  check(status, "clFinish (before fetching a program binary)");
}

}  // namespace detail
}  // namespace xgpu::opencl
