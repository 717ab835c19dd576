// Test-only seams of the kernel cache; see test_hooks.hpp.
#include "cache/test_hooks.hpp"

#include <unistd.h>

#include <cstdlib>
#include <cstring>

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

}  // namespace xgpu::detail
