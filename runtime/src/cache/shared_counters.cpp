// <folder>/counters; see shared_counters.hpp. Opened like an entry: never through a final
// symbolic link, never blocking on a FIFO planted there, and only when it is a regular file.
#include "cache/shared_counters.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <mutex>
#include <sstream>

#include "cache/kernel_cache.hpp"
#include "cache/test_hooks.hpp"
#include "log.hpp"

namespace xgpu::detail {
namespace {

constexpr const char* kHeader = "xgpu cache counters 1";
constexpr std::size_t kLargestFile = 64 * 1024;

struct Field {
  const char* name;
  std::uint64_t CacheStats::*value;
};
const Field kFields[] = {
    {"hits", &CacheStats::hits},
    {"misses", &CacheStats::misses},
    {"stores", &CacheStats::stores},
    {"store_failures", &CacheStats::store_failures},
    {"bad_entries", &CacheStats::bad_entries},
    {"healed", &CacheStats::healed},
    {"read_only_skips", &CacheStats::read_only_skips},
    {"evictions", &CacheStats::evictions},
};

std::string path_in(const std::string& folder) { return folder + "/counters"; }

// Holds an flock for its lifetime; closes the file.
class LockedFile {
 public:
  LockedFile(const std::string& path, int flags, int lock) {
    fd_ = open(path.c_str(), flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0600);
    if (fd_ < 0) {
      error_ = errno;
      why_ = std::strerror(errno);
      return;
    }
    struct stat info {};
    if (fstat(fd_, &info) != 0 || !S_ISREG(info.st_mode)) {
      why_ = "not a regular file";
      close_file();
      return;
    }
    while (flock(fd_, lock) != 0) {
      if (errno == EINTR) continue;
      why_ = std::string("cannot lock it: ") + std::strerror(errno);
      close_file();
      return;
    }
  }
  ~LockedFile() { close_file(); }
  LockedFile(const LockedFile&) = delete;
  LockedFile& operator=(const LockedFile&) = delete;

  bool ok() const { return fd_ >= 0; }
  int fd() const { return fd_; }
  const std::string& why() const { return why_; }
  int error() const { return error_; }  ///< errno of a failed open, else 0

  bool read_all(std::string& text) const {
    text.clear();
    char buffer[4096];
    off_t at = 0;
    while (text.size() <= kLargestFile) {
      const ssize_t got = pread(fd_, buffer, sizeof buffer, at);
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) return false;
      if (got == 0) return true;
      text.append(buffer, static_cast<std::size_t>(got));
      at += got;
    }
    return true;  // too long: the parser refuses it
  }

  /// Writes `text` over the file's content. Counts only grow, so the text is rarely shorter:
  /// the file is truncated only then (ftruncate costs milliseconds on some filesystems, more
  /// than the whole update otherwise).
  bool replace_with(const std::string& text) const {
    std::size_t done = 0;
    while (done < text.size()) {
      const ssize_t put =
          pwrite(fd_, text.data() + done, text.size() - done, static_cast<off_t>(done));
      if (put < 0 && errno == EINTR) continue;
      if (put <= 0) return false;
      done += static_cast<std::size_t>(put);
    }
    struct stat info {};
    if (fstat(fd_, &info) != 0) return false;
    return static_cast<std::uint64_t>(info.st_size) <= text.size() ||
           ftruncate(fd_, static_cast<off_t>(text.size())) == 0;
  }

 private:
  void close_file() {
    if (fd_ >= 0) close(fd_);  // closing releases the lock
    fd_ = -1;
  }
  int fd_ = -1;
  int error_ = 0;
  std::string why_;
};

bool parse_number(const std::string& text, std::uint64_t& value) {
  if (text.empty() || text.size() > 20) return false;
  value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
    const std::uint64_t digit = static_cast<std::uint64_t>(c - '0');
    if (value > (UINT64_MAX - digit) / 10) return false;
    value = value * 10 + digit;
  }
  return true;
}

// Empty `why` when the text is a counters file; counts of keys it does not know are ignored
// (a newer xgpu's), a key twice, a bad number or a missing header are damage.
SharedCounters parse(const std::string& text, std::string& why) {
  SharedCounters counters;
  if (text.size() > kLargestFile) {
    why = "longer than " + std::to_string(kLargestFile) + " bytes";
    return counters;
  }
  std::istringstream lines(text);
  std::string line;
  if (!std::getline(lines, line) || line != kHeader) {
    why = "it does not start with '" + std::string(kHeader) + "'";
    return counters;
  }
  bool seen[sizeof kFields / sizeof kFields[0]] = {};
  bool seen_since = false;
  while (std::getline(lines, line)) {
    const std::size_t space = line.find(' ');
    const std::string key = line.substr(0, space);
    std::uint64_t number = 0;
    if (space == std::string::npos || !parse_number(line.substr(space + 1), number)) {
      why = "line '" + line.substr(0, 80) + "' is not 'NAME NUMBER'";
      return counters;
    }
    if (key == "since") {
      if (seen_since) why = "'since' appears twice";
      seen_since = true;
      counters.since = static_cast<std::int64_t>(number);
    }
    for (std::size_t i = 0; i < sizeof kFields / sizeof kFields[0]; ++i) {
      if (key != kFields[i].name) continue;
      if (seen[i]) why = "'" + key + "' appears twice";
      seen[i] = true;
      counters.totals.*kFields[i].value = number;
    }
    if (!why.empty()) return counters;
  }
  if (!lines.eof()) why = "it cannot be read";
  return counters;
}

std::string format(const SharedCounters& counters) {
  std::string text = std::string(kHeader) + "\nsince " + std::to_string(counters.since) + "\n";
  for (const Field& field : kFields)
    text += std::string(field.name) + " " + std::to_string(counters.totals.*field.value) + "\n";
  return text;
}

bool nothing(const CacheStats& stats) {
  for (const Field& field : kFields)
    if (stats.*field.value != 0) return false;
  return true;
}

// Replaces the file's content with counting from zero (then `delta`), under the caller's lock.
bool write_fresh(const LockedFile& file, const CacheStats& delta) {
  SharedCounters fresh;
  fresh.since = static_cast<std::int64_t>(std::time(nullptr));
  fresh.totals = delta;
  return file.replace_with(format(fresh));
}

}  // namespace

SharedCounters read_shared_counters(const std::string& folder) {
  SharedCounters counters;
  if (folder.empty()) return counters;
  LockedFile file(path_in(folder), O_RDONLY, LOCK_SH);
  if (!file.ok()) {
    if (file.error() != ENOENT) counters.problem = path_in(folder) + ": " + file.why();
    return counters;
  }
  std::string text, why;
  if (!file.read_all(text)) {
    counters.problem = path_in(folder) + ": " + std::strerror(errno);
    return counters;
  }
  if (text.empty()) return counters;  // created, not written yet
  counters = parse(text, why);
  if (!why.empty()) {
    counters = SharedCounters{};
    counters.problem = path_in(folder) + " is damaged (" + why + ")";
  }
  return counters;
}

bool add_shared_counters(const std::string& folder, const CacheStats& delta) {
  const std::string path = path_in(folder);
  LockedFile file(path, O_RDWR | O_CREAT, LOCK_EX);
  if (!file.ok()) {
    logger("cache").debug("cannot record the cache's counters in {}: {}", path, file.why());
    return false;
  }
  std::string text, why;
  if (!file.read_all(text)) {
    why = std::strerror(errno);
  } else if (!text.empty()) {
    SharedCounters counters = parse(text, why);
    if (why.empty()) {
      delay_counters_update_if_asked();
      for (const Field& field : kFields) counters.totals.*field.value += delta.*field.value;
      if (file.replace_with(format(counters))) return true;
      logger("cache").debug("cannot write {}: {}", path, std::strerror(errno));
      return false;
    }
  }
  if (!why.empty()) {
    logger("cache").warn("the cache's counters file {} is damaged ({}): counting starts again",
                         path, why);
  }
  if (write_fresh(file, delta)) return true;
  logger("cache").debug("cannot write {}: {}", path, std::strerror(errno));
  return false;
}

bool reset_shared_counters(const std::string& folder) {
  LockedFile file(path_in(folder), O_RDWR | O_CREAT, LOCK_EX);
  return file.ok() && write_fresh(file, CacheStats{});
}

void record_process_counters() {
  static std::mutex* mutex = new std::mutex();  // never destroyed: used at exit
  static CacheStats* recorded = new CacheStats();
  std::lock_guard<std::mutex> lock(*mutex);
  const CacheStats now = cache_stats();
  const CacheStats delta = now - *recorded;
  if (nothing(delta)) return;
  *recorded = now;  // a failure is not retried: the record is a convenience, not a ledger
  const CacheStore& store = KernelCache::instance().store();
  if (!store.writable()) return;
  add_shared_counters(store.settings().folder, delta);
}

}  // namespace xgpu::detail
