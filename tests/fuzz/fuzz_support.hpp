// What the libFuzzer targets share: the input as text, a failed property as an abort that
// says which, and a file holding the input for parsers that read a path.
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace xgpu_fuzz {

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

/// A property the target checks does not hold: libFuzzer saves the input as a crash.
[[noreturn]] inline void fail(const std::string& what) {
  std::fprintf(stderr, "fuzz property violated: %s\n", what.c_str());
  std::abort();
}

/// The input as a file, for parsers that take a path (profiles, traces): one memory-backed
/// file per process, rewritten for each input, so a run writes nothing to disk.
inline std::string as_file(std::string_view bytes) {
  static const int fd = memfd_create("xgpu-fuzz-input", 0);
  if (fd < 0) fail("memfd_create failed");
  if (ftruncate(fd, 0) != 0) fail("ftruncate failed");
  for (std::size_t done = 0; done < bytes.size();) {
    const ssize_t n = pwrite(fd, bytes.data() + done, bytes.size() - done, done);
    if (n <= 0) fail("pwrite failed");
    done += static_cast<std::size_t>(n);
  }
  return "/proc/self/fd/" + std::to_string(fd);
}

}  // namespace xgpu_fuzz
