// The lock a kernel's launches take: the arguments a driver keeps are per kernel object, so
// setting them and enqueueing must not interleave with another thread's launch of it.
#pragma once

#include <atomic>

namespace xgpu::detail {

/// Held for one launch (a few microseconds) and rarely contended: only by two threads
/// launching the same Kernel object at once. std::mutex cost a launch two calls into glibc,
/// a share of a launch that callgrind tells apart; this takes one exchange and releases with
/// a plain store. A waiter spins a little, then yields its core, since the holder may be inside a
/// driver that runs the kernel during the enqueue (Oclgrind) or be off its core.
class LaunchLock {
 public:
  void lock() noexcept {
    while (held_.exchange(true, std::memory_order_acquire)) wait_until_free();
  }
  void unlock() noexcept { held_.store(false, std::memory_order_release); }

 private:
  void wait_until_free() const noexcept;
  std::atomic<bool> held_{false};
};

}  // namespace xgpu::detail
