// Opening below the cache folder one level at a time (openat with O_NOFOLLOW), so that no
// symbolic link is ever followed there. Checking a path with lstat and then opening it left a
// window in which a folder could be swapped for a link; an open that refuses links is the check
// and the use at once, and each later level is opened inside the folder already open.
#pragma once

#include <fcntl.h>

#include <string>
#include <utility>

namespace xgpu::detail {

/// A file descriptor, closed when destroyed.
class OwnedFd {
 public:
  OwnedFd() = default;
  explicit OwnedFd(int fd) : fd_(fd) {}
  OwnedFd(OwnedFd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  OwnedFd& operator=(OwnedFd&& other) noexcept {
    std::swap(fd_, other.fd_);
    return *this;
  }
  OwnedFd(const OwnedFd&) = delete;
  OwnedFd& operator=(const OwnedFd&) = delete;
  ~OwnedFd();

  int get() const { return fd_; }
  /// Gives the descriptor up (to fdopendir, which closes it itself).
  int release() { return std::exchange(fd_, -1); }
  explicit operator bool() const { return fd_ >= 0; }

 private:
  int fd_ = -1;
};

/// Opens the folder `name` inside the open folder `parent` (AT_FDCWD: `name` is a path, whose
/// last component only is not followed), first creating it (0700) when `create`. Invalid with
/// errno set when missing (ENOENT), a link or not a folder (ENOTDIR), or unreadable.
OwnedFd open_folder_at(int parent, const std::string& name, bool create);

/// Opens the file `name` inside `parent` for reading: never through a link, never blocking (a
/// FIFO planted there is then refused by its type).
OwnedFd open_file_at(int parent, const std::string& name);

/// Why `name` inside `parent` could not be opened as a folder (the open failed with
/// `open_error`), for a warning: "a symbolic link, never followed", "not a folder", or the error.
std::string why_not_a_folder(int parent, const std::string& name, int open_error);

}  // namespace xgpu::detail
