// The recent commands of a queue that have an Event (launches that return one, copies, fills,
// asynchronous transfers, markers, the extension's commands), the last kKept of them, so that
// Queue::finish can name the command that failed on the device: OpenCL's clFinish says at
// most that one did, and PoCL's not even that. submit() makes no Event, and so is not kept.
#pragma once

#include <array>
#include <cstddef>
#include <mutex>

#include "xgpu/event.hpp"

namespace xgpu::detail {

class QueueCommands {
 public:
  static constexpr std::size_t kKept = 16;

  /// Keeps `event` (a reference of its own), dropping the oldest beyond kKept.
  void add(const Event& event);
  /// After a finish: the kept commands, oldest first, into `done` (the rest of it empty); all
  /// are forgotten here, being done.
  void take(std::array<Event, kKept>& done);

 private:
  std::mutex mutex_;
  std::array<Event, kKept> kept_;
  std::size_t next_ = 0;  ///< where the next one goes; the oldest is there too once full
};

/// Keeps `event` among `queue`'s recent commands (nothing for an empty Event or Queue).
void note_command(const Queue& queue, const Event& event);

}  // namespace xgpu::detail
