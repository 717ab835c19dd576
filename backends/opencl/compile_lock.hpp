// The compile lock of the serialize_compiles quirk (known_drivers.def): pure C++, so that the unit
// tests compile it directly.
#pragma once

#include <atomic>
#include <cstdint>

namespace xgpu::backend_opencl {

/// The compile lock. Every launch on PoCL takes it, and it may be held for a whole build
/// (seconds): so it is free to take when nobody holds it (one compare-and-swap, inline) and
/// puts a waiter to sleep when somebody does. A launch pays about 27 instructions for it, of
/// PoCL's 2,900 (callgrind); std::mutex, reached through two calls per side, cost about 100.
class CompileLock {
 public:
  void lock() noexcept {
    std::uint32_t expected = kFree;
    if (!state_.compare_exchange_strong(expected, kHeld, std::memory_order_acquire))
      lock_contended();
  }
  void unlock() noexcept {
    if (state_.exchange(kFree, std::memory_order_release) == kHeldWithWaiters) wake_one();
  }

 private:
  static constexpr std::uint32_t kFree = 0;
  static constexpr std::uint32_t kHeld = 1;
  static constexpr std::uint32_t kHeldWithWaiters = 2;  // its unlock must wake a sleeper
  void lock_contended() noexcept;
  void wake_one() noexcept;
  std::atomic<std::uint32_t> state_{kFree};
};

/// Process-wide; constant-initialised and trivially destroyed, so a release after main()
/// returns still finds it.
inline CompileLock g_compile_lock;

}  // namespace xgpu::backend_opencl
