// fd 2 is pointed at a temporary file (not a pipe: a chatty driver cannot fill a pipe and
// block while nobody reads it), and restored on every path out of the capture.
#include "output_capture.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <iostream>

namespace xgpu::conform {
namespace {

std::string limited(std::string text) {
  if (text.size() <= OutputCapture::kLimit) return text;
  const std::size_t left_out = text.size() - OutputCapture::kLimit;
  text.resize(OutputCapture::kLimit);
  return text + "\n... (" + std::to_string(left_out) + " more bytes left out)\n";
}

std::string read_all(std::FILE* file) {
  std::string text;
  const int fd = fileno(file);
  if (lseek(fd, 0, SEEK_SET) != 0) return text;
  char buffer[4096];
  while (true) {
    const ssize_t got = read(fd, buffer, sizeof buffer);
    if (got > 0) {
      text.append(buffer, static_cast<std::size_t>(got));
      continue;
    }
    if (got < 0 && errno == EINTR) continue;
    return text;
  }
}

}  // namespace

std::FILE* terminal_stderr() {
  static std::FILE* stream = [] {
    const int copy = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
    std::FILE* opened = copy >= 0 ? fdopen(copy, "w") : nullptr;
    if (!opened) return stderr;  // no spare descriptor: the plain stderr is the best left
    setvbuf(opened, nullptr, _IONBF, 0);
    return opened;
  }();
  return stream;
}

OutputCapture::OutputCapture() : log_(std::make_unique<ScopedLogCapture>()) {
  terminal_stderr();  // the copy of the real stderr is taken before fd 2 moves
  std::cerr.flush();
  std::fflush(stderr);
  file_ = std::tmpfile();
  if (!file_) return;
  saved_stderr_ = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
  if (saved_stderr_ < 0 || dup2(fileno(file_), STDERR_FILENO) < 0) {
    if (saved_stderr_ >= 0) close(saved_stderr_);
    saved_stderr_ = -1;
    std::fclose(file_);
    file_ = nullptr;
  }
}

OutputCapture::~OutputCapture() {
  restore();
  if (file_) std::fclose(file_);
}

void OutputCapture::restore() {
  if (log_) {
    log_text_ = log_->text();
    log_.reset();
  }
  if (saved_stderr_ >= 0) {
    std::cerr.flush();
    std::fflush(stderr);
    dup2(saved_stderr_, STDERR_FILENO);
    close(saved_stderr_);
    saved_stderr_ = -1;
  }
}

std::string OutputCapture::finish() {
  restore();
  std::string text;
  if (file_) {
    text = limited(read_all(file_));
    std::fclose(file_);
    file_ = nullptr;
  }
  if (!text.empty() && text.back() != '\n') text += '\n';
  return text + limited(std::move(log_text_));
}

}  // namespace xgpu::conform
