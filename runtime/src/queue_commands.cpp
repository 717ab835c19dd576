// The recent commands of a queue; see queue_commands.hpp.
#include "queue_commands.hpp"

#include <utility>

#include "xgpu/queue.hpp"

namespace xgpu::detail {

void QueueCommands::add(const Event& event) {
  Event copy = event;  // the driver's retain, outside the lock
  std::lock_guard<std::mutex> lock(mutex_);
  std::swap(kept_[next_], copy);
  next_ = (next_ + 1) % kKept;
  // `copy` now holds the oldest, released after the lock.
}

void QueueCommands::take(std::array<Event, kKept>& done) {
  std::array<Event, kKept> kept;
  std::size_t oldest = 0;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    std::swap(kept, kept_);
    oldest = next_;
    next_ = 0;
  }
  for (std::size_t i = 0; i < kKept; ++i) done[i] = std::move(kept[(oldest + i) % kKept]);
}

QueueCommands* commands_of(const Queue& queue) noexcept { return queue.commands_.get(); }

void note_command(const Queue& queue, const Event& event) {
  QueueCommands* commands = commands_of(queue);
  if (commands != nullptr && event) commands->add(event);
}

}  // namespace xgpu::detail
