// The OpenCL module's compile lock (backends/opencl/compile_lock.{hpp,cpp}), compiled into
// the tests directly: every launch on PoCL takes it, builds hold it for seconds, so it must
// exclude under contention and let a waiter through once the holder is done.
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <thread>
#include <vector>

#include "compile_lock.hpp"

using xgpu::backend_opencl::CompileLock;

TEST_CASE("the compile lock excludes: counts made under it are never lost", "[compile_lock]") {
  CompileLock lock;
  constexpr int kThreads = 4;
  constexpr int kRounds = 20000;
  long counter = 0;  // plain: only the lock keeps the increments whole
  std::atomic<int> inside{0};
  std::atomic<bool> overlapped{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kRounds; ++i) {
        lock.lock();
        if (inside.fetch_add(1) != 0) overlapped = true;
        // A few long holds, as a build's, so that waiters go to sleep and must be woken.
        if (i % 5000 == t) std::this_thread::sleep_for(std::chrono::milliseconds(2));
        long seen = counter;
        counter = seen + 1;
        inside.fetch_sub(1);
        lock.unlock();
      }
    });
  }
  for (auto& thread : threads) thread.join();
  CHECK_FALSE(overlapped.load());
  CHECK(counter == long{kThreads} * kRounds);
}

TEST_CASE("a waiter on the compile lock gets it once the holder releases it", "[compile_lock]") {
  CompileLock lock;
  lock.lock();
  std::atomic<bool> acquired{false};
  std::thread waiter([&] {
    lock.lock();
    acquired = true;
    lock.unlock();
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  CHECK_FALSE(acquired.load());  // still held: the waiter must not have it
  lock.unlock();
  waiter.join();  // a lost wake-up hangs here (CTest's timeout names it)
  CHECK(acquired.load());
  // Free again: taking it now does not wait.
  lock.lock();
  lock.unlock();
}
