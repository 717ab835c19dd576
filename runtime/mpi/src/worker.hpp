// Worker: one thread per Comm that runs the Comm's non-blocking collectives in the order they
// were started, so that every rank issues its MPI calls in the same order.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

namespace xgpu::mpi::detail {

class Worker {
 public:
  Worker() = default;
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;
  ~Worker() { stop(); }

  /// Queues a job (which must not throw); the thread starts with the first.
  void submit(std::function<void()> job);
  /// Returns once every job submitted so far has run.
  void drain();
  /// drain(), then ends the thread; submit() starts it again.
  void stop();

 private:
  void run();

  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::function<void()>> jobs_;
  bool busy_ = false, stopping_ = false;
  std::thread thread_;
};

}  // namespace xgpu::mpi::detail
