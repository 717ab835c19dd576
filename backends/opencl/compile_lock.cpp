// CompileLock's slow path: where its waiters sleep, and how they are woken.
#include "compile_lock.hpp"

#include <condition_variable>
#include <mutex>

namespace xgpu::backend_opencl {
namespace {

// Where CompileLock's waiters sleep. Never destroyed: the core still releases objects after
// main() returns.
struct Sleepers {
  std::mutex mutex;
  std::condition_variable woken;
};
Sleepers& compile_lock_sleepers() {
  static Sleepers* sleepers = new Sleepers;
  return *sleepers;
}

}  // namespace

// A waiter marks the lock "held with waiters" before it sleeps, and sleeps only if it was held
// when it marked it. It marks and then waits under the sleepers' mutex, which unlock()'s
// wake_one() takes before it notifies: a wake can fall neither between the two nor before the
// waiter sleeps. A waiter that wins the lock leaves it marked, so the next unlock wakes the
// next sleeper (at worst once for nobody).
void CompileLock::lock_contended() noexcept {
  Sleepers& sleepers = compile_lock_sleepers();
  std::unique_lock<std::mutex> guard(sleepers.mutex);
  while (state_.exchange(kHeldWithWaiters, std::memory_order_acquire) != kFree)
    sleepers.woken.wait(guard);
}

void CompileLock::wake_one() noexcept {
  Sleepers& sleepers = compile_lock_sleepers();
  { std::lock_guard<std::mutex> guard(sleepers.mutex); }
  sleepers.woken.notify_one();
}

}  // namespace xgpu::backend_opencl
