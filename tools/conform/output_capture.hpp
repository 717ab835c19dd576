// Keeps what a check prints out of the terminal and in its record: the bytes written to
// file descriptor 2 (a driver's compiler diagnostics such as "1 error generated.", which
// no API hands back) and xgpu's log lines (a warning about a cache entry a check corrupted on
// purpose). Used by the runner around every check of `xgpu conform`, and by `xgpu bench`
// around its builds.
//
// Process-wide while it lives: fd 2 is one per process, so every thread's stderr goes to the
// record (the driver's helper threads included). Whatever else must still reach the terminal
// meanwhile (the --full progress bar) writes to terminal_stderr(), a copy of the real stderr.
#pragma once

#include <cstdio>
#include <memory>
#include <string>
#include <xgpu/log.hpp>

namespace xgpu::conform {

class OutputCapture {
 public:
  /// Starts capturing. Never throws: when fd 2 cannot be redirected (no temporary file), the
  /// driver's output is left alone and only xgpu's log lines are captured.
  OutputCapture();
  /// Restores fd 2 and xgpu's log (when finish() was not called).
  ~OutputCapture();
  OutputCapture(const OutputCapture&) = delete;
  OutputCapture& operator=(const OutputCapture&) = delete;

  /// Restores fd 2 and the log, and returns what was captured: stderr's bytes, then the log
  /// lines; at most kLimit bytes of each, with a note of how much was left out.
  std::string finish();

  static constexpr std::size_t kLimit = 64 * 1024;

 private:
  void restore();

  std::unique_ptr<ScopedLogCapture> log_;
  std::FILE* file_ = nullptr;  ///< the temporary file fd 2 points at
  int saved_stderr_ = -1;      ///< the real fd 2, put back by restore()
  std::string log_text_;
};

/// The real stderr, even while an OutputCapture holds fd 2: a stream opened once on a
/// duplicate of fd 2 taken before any capture; unbuffered.
std::FILE* terminal_stderr();

}  // namespace xgpu::conform
