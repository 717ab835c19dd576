// The runner of xgpu-mpi-tests, one process per MPI rank (tests/mpi/CMakeLists.txt starts it
// under mpiexec). Every rank runs the same test cases in the same order. A watchdog ends the
// rank, and with it the run, when a test hangs (a collective that never completes), so a hang
// fails the test instead of waiting for CTest's timeout.
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>
#include <xgpu/mpi.hpp>

#include "session.hpp"

namespace {

class Watchdog {
 public:
  Watchdog(int rank, int seconds) {
    thread_ = std::thread([this, rank, seconds] {
      std::unique_lock<std::mutex> lock(mutex_);
      if (!done_cv_.wait_for(lock, std::chrono::seconds(seconds), [this] { return done_; })) {
        std::fprintf(stderr, "rank %d: watchdog: the tests still run after %d s: a hang\n", rank,
                     seconds);
        std::fflush(stderr);
        std::_Exit(124);
      }
    });
  }
  ~Watchdog() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      done_ = true;
    }
    done_cv_.notify_all();
    thread_.join();
  }

 private:
  std::mutex mutex_;
  std::condition_variable done_cv_;
  bool done_ = false;
  std::thread thread_;
};

}  // namespace

int main(int argc, char** argv) {
  xgpu::mpi::Env env(argc, argv);
  const xgpu::mpi::Comm world = xgpu::mpi::Comm::world();
  const char* limit = std::getenv("XGPU_TEST_MPI_WATCHDOG_S");
  Watchdog watchdog(world.rank(), limit ? std::atoi(limit) : 50);
  const int failed =
      xgpu_test::run_catch_session(argc, argv, "rank " + std::to_string(world.rank()));
  // Every rank's own result: mpiexec fails the run when any rank fails.
  return failed == 0 ? 0 : 1;
}
