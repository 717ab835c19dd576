// The finish_queues_before_binary workaround (known_drivers.def): on a platform with the quirk, the
// module records every queue the caller holds, so that a program binary can be fetched only
// while the platform's queues are idle. Every caller reference passes through the module
// (queue_create hands queues out, retain and release count them), so the count here is the
// caller's, exact without asking the driver.
#pragma once

#include <chrono>
#include <string>

#include "cl.hpp"
#include "errors.hpp"
#include "quirk_platforms.hpp"
#include "serialized_call.hpp"

namespace xgpu::backend_opencl {

namespace detail {
void count_queue_reference(cl_command_queue queue);
void drop_queue_reference(cl_command_queue queue);
/// Puts a marker on every recorded queue of `handle`'s platform, flushes them all, and waits
/// up to `bound` for every marker: true when all completed (each queue ran dry of what it held).
bool queues_drained_within(const void* handle, std::chrono::steady_clock::duration bound);
/// kDrainGiveUp; in the tests' copy of the module, XGPU_OPENCL_DRAIN_GIVE_UP_MS (a compile
/// definition of that copy only, which is never installed).
std::chrono::milliseconds drain_give_up();
}  // namespace detail

inline bool records_queues(const void* handle) noexcept {
  return quirk_on(Workaround::finish_queues_before_binary, handle);
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

/// How long a binary fetch holds the compile lock (which launches take) waiting for the queues.
constexpr std::chrono::milliseconds kLockedDrainWait{100};
/// How long one binary query tries in all before it gives up (the kernel cache then saves
/// nothing; a save makes two queries, the size and the bytes).
constexpr std::chrono::seconds kDrainGiveUp{10};

/// Calls `fetch` (which fetches a binary of `program`) under the compile lock, and on a
/// platform with the quirk only once every recorded queue of it has drained under that lock,
/// so that no launch runs during the fetch. A queue may hold a command that waits for a user
/// event (interop) that the thread setting it sets only after a launch of its own, which
/// waits for the compile lock: so the lock is held for kLockedDrainWait at most; then the
/// queues drain without it, and the fetch tries again, until kDrainGiveUp.
template <class Fetch>
xgpu_status fetch_with_queues_drained(cl_program program, Fetch&& fetch) {
  if (!records_queues(program)) {
    SerializedCompile compiling(program);
    return fetch();
  }
  const auto give_up_after = detail::drain_give_up();
  const auto give_up_at = std::chrono::steady_clock::now() + give_up_after;
  while (true) {
    {
      SerializedCompile compiling(program);
      if (detail::queues_drained_within(program, kLockedDrainWait)) return fetch();
    }
    const auto left = give_up_at - std::chrono::steady_clock::now();
    if (left <= left.zero() || !detail::queues_drained_within(program, left)) {
      fail(XGPU_STATUS_NOT_AVAILABLE,
           "program_binary: the platform's queues did not drain within " +
               std::to_string(give_up_after.count()) +
               " ms (a command still pending, or one failed; a binary is fetched only while "
               "no launch runs: quirk finish_queues_before_binary); not fetched");
    }
  }
}

}  // namespace xgpu::backend_opencl
