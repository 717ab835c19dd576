// The Comm's job thread (worker.hpp).
#include "worker.hpp"

namespace xgpu::mpi::detail {

void Worker::submit(std::function<void()> job) {
  std::lock_guard<std::mutex> lock(mutex_);
  jobs_.push_back(std::move(job));
  if (!thread_.joinable()) {
    stopping_ = false;
    thread_ = std::thread([this] { run(); });
  }
  changed_.notify_all();
}

void Worker::drain() {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [this] { return jobs_.empty() && !busy_; });
}

void Worker::stop() {
  std::thread ending;
  {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [this] { return jobs_.empty() && !busy_; });
    stopping_ = true;
    changed_.notify_all();
    ending = std::move(thread_);
  }
  if (ending.joinable()) ending.join();
}

void Worker::run() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    changed_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
    if (jobs_.empty()) return;  // stopping, nothing left
    std::function<void()> job = std::move(jobs_.front());
    jobs_.pop_front();
    busy_ = true;
    lock.unlock();
    job();
    job = nullptr;  // what it holds goes before drain() may return
    lock.lock();
    busy_ = false;
    changed_.notify_all();
  }
}

}  // namespace xgpu::mpi::detail
