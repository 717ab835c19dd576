// Test-only seams of the kernel cache; see test_hooks.hpp.
#include "cache/test_hooks.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "log.hpp"

namespace xgpu::detail {

void stall_mid_write_if_asked(int fd, const std::string& bytes) {
  static const bool stall = [] {
    const char* value = std::getenv("XGPU_CACHE_TEST_STALL_WRITE");
    return value != nullptr && std::strcmp(value, "1") == 0;
  }();
  if (!stall) return;
  const std::size_t half = bytes.size() / 2;
  std::size_t done = 0;
  while (done < half) {
    const ssize_t put = ::write(fd, bytes.data() + done, half - done);
    if (put <= 0) break;
    done += static_cast<std::size_t>(put);
  }
  fsync(fd);
  logger("cache").warn("XGPU_CACHE_TEST_STALL_WRITE=1: stalled after {} of {} bytes, for a test",
                       done, bytes.size());
  while (true) pause();  // until a signal ends the process
}

void delay_counters_update_if_asked() {
  static const long milliseconds = [] {
    const char* value = std::getenv("XGPU_CACHE_TEST_COUNTERS_DELAY_MS");
    return value != nullptr ? std::atol(value) : 0L;
  }();
  if (milliseconds > 0) std::this_thread::sleep_for(std::chrono::milliseconds(milliseconds));
}

}  // namespace xgpu::detail
