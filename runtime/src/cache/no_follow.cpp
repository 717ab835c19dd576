// Opening below the cache folder without following links; see no_follow.hpp.
#include "cache/no_follow.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace xgpu::detail {

OwnedFd::~OwnedFd() {
  if (fd_ >= 0) close(fd_);
}

OwnedFd open_folder_at(int parent, const std::string& name, bool create) {
  if (create && mkdirat(parent, name.c_str(), 0700) != 0 && errno != EEXIST) return OwnedFd();
  return OwnedFd(openat(parent, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
}

OwnedFd open_file_at(int parent, const std::string& name) {
  return OwnedFd(openat(parent, name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
}

std::string why_not_a_folder(int parent, const std::string& name, int open_error) {
  struct stat info {};
  if (fstatat(parent, name.c_str(), &info, AT_SYMLINK_NOFOLLOW) == 0) {
    if (S_ISLNK(info.st_mode)) return "a symbolic link, never followed";
    if (!S_ISDIR(info.st_mode)) return "not a folder";
  }
  return std::strerror(open_error);
}

}  // namespace xgpu::detail
