// Helpers of the kernel cache's white-box tests: a private temporary folder per test,
// entries to store, and small file operations on what the store leaves on disk.
#pragma once

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "../test_support.hpp"
#include "cache/entry.hpp"
#include "cache/hash.hpp"
#include "cache/settings.hpp"

namespace xgpu_cache_test {

namespace fs = std::filesystem;
using xgpu::detail::CacheEntry;
using xgpu::detail::CacheMode;
using xgpu::detail::CacheSettings;

// A fresh private folder per test, removed with everything in it at the end.
class TempFolder {
 public:
  TempFolder() {
    std::string pattern = (fs::temp_directory_path() / "xgpu-cache-test-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) FAIL("mkdtemp: " << std::strerror(errno));
    path_ = pattern;
  }
  TempFolder(const TempFolder&) = delete;
  TempFolder& operator=(const TempFolder&) = delete;
  ~TempFolder() {
    std::error_code ignored;
    // Give back write permission a test took away, so everything can be removed.
    for (auto it = fs::recursive_directory_iterator(path_, ignored);
         it != fs::recursive_directory_iterator(); it.increment(ignored)) {
      if (it->is_directory(ignored) && !it->is_symlink(ignored)) chmod(it->path().c_str(), 0700);
    }
    fs::remove_all(path_, ignored);
  }
  const std::string& path() const { return path_; }
  std::string operator/(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

inline CacheSettings settings_for(const std::string& folder, CacheMode mode = CacheMode::read_write,
                                  std::uint64_t max_size = 1ull << 30) {
  CacheSettings settings;
  settings.mode = mode;
  settings.folder = folder;
  settings.max_size = max_size;
  return settings;
}

// An entry with a binary of `binary_size` bytes, every byte value (NUL included) present.
inline CacheEntry make_entry(const std::string& key, std::size_t binary_size = 64) {
  CacheEntry entry;
  entry.key = key;
  entry.metadata = "device=test device\ndriver=1.0\nsource=test.cl\nkernels=a;b\n";
  entry.build_log = "warning: nothing to see";
  for (std::size_t i = 0; i < binary_size; ++i) entry.binary += static_cast<char>(i * 7 + 3);
  return entry;
}

inline bool same(const CacheEntry& a, const CacheEntry& b) {
  return a.key == b.key && a.metadata == b.metadata && a.build_log == b.build_log &&
         a.binary == b.binary;
}

inline std::string hash_of(const std::string& key) {
  return xgpu::detail::to_hex(xgpu::detail::sha256({key}));
}

inline std::string entry_path(const std::string& folder, const std::string& hash) {
  return folder + "/v1/" + hash.substr(0, 2) + "/" + hash + ".xkc";
}

inline std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

inline void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  REQUIRE(out.good());
}

// Every regular file under a folder, relative paths, temporaries included.
inline std::vector<std::string> files_under(const std::string& folder) {
  std::vector<std::string> found;
  std::error_code ignored;
  for (auto it = fs::recursive_directory_iterator(folder, ignored);
       it != fs::recursive_directory_iterator(); it.increment(ignored)) {
    if (it->is_regular_file(ignored)) found.push_back(fs::relative(it->path(), folder).string());
  }
  std::sort(found.begin(), found.end());
  return found;
}

inline bool exists(const std::string& path) {
  struct stat info {};
  return lstat(path.c_str(), &info) == 0;
}

inline unsigned mode_of(const std::string& path) {
  struct stat info {};
  REQUIRE(lstat(path.c_str(), &info) == 0);
  return static_cast<unsigned>(info.st_mode & 07777);
}

inline void set_mtime(const std::string& path, std::time_t seconds) {
  timespec times[2] = {{seconds, 0}, {seconds, 0}};
  REQUIRE(utimensat(AT_FDCWD, path.c_str(), times, AT_SYMLINK_NOFOLLOW) == 0);
}

}  // namespace xgpu_cache_test
