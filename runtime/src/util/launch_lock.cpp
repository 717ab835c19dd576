#include "launch_lock.hpp"

#include <thread>

namespace xgpu::detail {

void LaunchLock::wait_until_free() const noexcept {
  // Reads only, so that waiting does not take the line from the holder; the caller's
  // exchange then races for it.
  for (int spin = 0; spin < 64; ++spin) {
    if (!held_.load(std::memory_order_relaxed)) return;
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
  }
  while (held_.load(std::memory_order_relaxed)) std::this_thread::yield();
}

}  // namespace xgpu::detail
