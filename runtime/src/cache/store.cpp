// The cache folder; see store.hpp. Nothing below the cache folder is followed through a
// symbolic link: entries are opened with O_NOFOLLOW, and a layout or fan-out folder that is a
// link (planted to make xgpu read or write elsewhere) is refused. Entries are opened with
// O_NONBLOCK, so that a FIFO planted at an entry's path cannot stall a program: it is then
// refused as not a regular file.
#include "cache/store.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "cache/cache_stats.hpp"
#include "cache/hash.hpp"
#include "cache/test_hooks.hpp"
#include "log.hpp"

namespace xgpu::detail {
namespace {

constexpr const char* kLayout = "v1";
constexpr const char* kSuffix = ".xkc";
constexpr std::uint64_t kLargestEntry = 1ull << 30;
constexpr std::time_t kAbandonedAfterSeconds = 3600;

std::string errno_text() { return std::strerror(errno); }

// mkdir -p with 0700 for every folder it creates.
bool make_folders(const std::string& path, std::string& why) {
  std::string partial;
  std::size_t at = 0;
  while (at != std::string::npos) {
    at = path.find('/', at + 1);
    partial = path.substr(0, at);
    if (partial.empty()) continue;
    if (mkdir(partial.c_str(), 0700) != 0 && errno != EEXIST) {
      why = "cannot create " + partial + ": " + errno_text();
      return false;
    }
  }
  return true;
}

// Opens a file that should be an entry: never through a final symlink, never blocking.
int open_entry_file(const std::string& path) {
  return open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
}

// Whether `path` is a folder itself, not a symbolic link to one (false when missing).
bool real_folder(const std::string& path) {
  struct stat info {};
  return lstat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode);
}

bool read_file(int fd, std::string& bytes) {
  struct stat info {};
  if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) return false;
  if (static_cast<std::uint64_t>(info.st_size) > kLargestEntry) return false;
  bytes.resize(static_cast<std::size_t>(info.st_size));
  std::size_t done = 0;
  while (done < bytes.size()) {
    ssize_t got = ::read(fd, bytes.data() + done, bytes.size() - done);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    done += static_cast<std::size_t>(got);
  }
  bytes.resize(done);
  return true;
}

bool write_all(int fd, const std::string& bytes) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    ssize_t put = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (put < 0 && errno == EINTR) continue;
    if (put <= 0) return false;
    done += static_cast<std::size_t>(put);
  }
  return true;
}

// Calls visit(path, name) for every file in the fan-out folders under root.
template <class Visit>
void for_each_file(const std::string& root, Visit&& visit) {
  if (!real_folder(root)) return;
  DIR* top = opendir(root.c_str());
  if (!top) return;
  while (dirent* fan = readdir(top)) {
    if (fan->d_name[0] == '.') continue;
    std::string folder = root + "/" + fan->d_name;
    if (!real_folder(folder)) continue;
    DIR* dir = opendir(folder.c_str());
    if (!dir) continue;
    while (dirent* file = readdir(dir)) {
      std::string name = file->d_name;
      if (name != "." && name != "..") visit(folder + "/" + name, name);
    }
    closedir(dir);
  }
  closedir(top);
}

}  // namespace

CacheStore::CacheStore(CacheSettings settings) : settings_(std::move(settings)) {
  if (settings_.mode == CacheMode::off) return;
  std::string problem = check_folder(settings_.folder, settings_.mode == CacheMode::read_write);
  if (!problem.empty()) {
    refuse(problem);
    return;
  }
  root_ = settings_.folder + "/" + kLayout;
  if (settings_.mode == CacheMode::read_write && access(settings_.folder.c_str(), W_OK) != 0) {
    const int error = errno;
    settings_.mode = CacheMode::read_only;
    if (error == EROFS) {
      // Unlike a folder its owner made read-only, a read-only filesystem (a container's
      // mount, a disk remounted after errors) is rarely meant: say once that nothing is saved.
      settings_.note = "read-only (the folder is on a read-only filesystem)";
      logger("cache").warn(
          "kernel cache at {} is on a read-only filesystem: it is only read, and programs "
          "built now are not saved",
          settings_.folder);
    } else {
      settings_.note = "read-only (the folder is not writable)";  // silently: its owner chose
    }
  }
  logger("cache").debug("kernel cache at {} ({})", settings_.folder,
                        writable() ? "read-write" : "read-only");
}

// Creates the folder (0700) when missing and `create`; returns why it must not be used,
// or "" (also for a missing folder that is not to be created: it simply holds nothing).
std::string CacheStore::check_folder(const std::string& folder, bool create) {
  struct stat info {};
  if (lstat(folder.c_str(), &info) != 0) {
    std::string why;
    if (errno != ENOENT) return "cannot use " + folder + ": " + errno_text();
    if (!create) return {};
    if (!make_folders(folder, why)) return why;
    if (lstat(folder.c_str(), &info) != 0) return "cannot use " + folder + ": " + errno_text();
  }
  if (S_ISLNK(info.st_mode)) return folder + " is a symbolic link";
  if (!S_ISDIR(info.st_mode)) return folder + " is not a folder";
  if (info.st_uid != geteuid()) {
    return folder + " belongs to user id " + std::to_string(info.st_uid) + ", not to you (" +
           std::to_string(geteuid()) + ")";
  }
  if (info.st_mode & (S_IWGRP | S_IWOTH)) {
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(info.st_mode & 07777));
    return folder + " is writable by other users (mode " + mode + "); chmod 700 it";
  }
  return {};
}

void CacheStore::refuse(const std::string& why) {
  settings_.mode = CacheMode::off;
  settings_.note = "off: " + why;
  logger("cache").warn("kernel cache disabled: {}; programs are built without it", why);
}

// The layout folder (v1) and the entry's fan-out folder must be folders, not links: a link
// would make every read and write of the cache land wherever it points.
bool CacheStore::folders_below_root_real(const std::string& path, const char* action) const {
  const std::string fan_out = path.substr(0, path.rfind('/'));
  for (const std::string& folder : {root_, fan_out}) {
    struct stat info {};
    if (lstat(folder.c_str(), &info) != 0) return errno == ENOENT;  // nothing there yet
    if (!S_ISDIR(info.st_mode)) {
      logger("cache").warn(
          "{} {}: {} is {}", action, path, folder,
          S_ISLNK(info.st_mode) ? "a symbolic link, never followed" : "not a folder");
      return false;
    }
  }
  return true;
}

std::string CacheStore::entry_path(const std::string& hash) const {
  return root_ + "/" + hash.substr(0, 2) + "/" + hash + kSuffix;
}

std::optional<CacheEntry> CacheStore::load(const std::string& hash, const std::string& key) {
  if (!readable()) return std::nullopt;
  const std::string path = entry_path(hash);
  if (!folders_below_root_real(path, "not reading")) return std::nullopt;
  int fd = open_entry_file(path);
  if (fd < 0) {
    if (errno != ENOENT) logger("cache").warn("cannot open cache entry {}: {}", path, errno_text());
    return std::nullopt;
  }
  std::string bytes;
  bool read_ok = read_file(fd, bytes);
  CacheEntry entry;
  std::string why;
  bool sound = read_ok && parse_entry(bytes, entry, &why);
  if (sound && entry.key != key) {
    sound = false;
    why = "its key differs (a hash collision or a tampered entry)";
  }
  if (!sound) {
    if (!read_ok) why = "not a readable regular file";
    logger("cache").warn("cache entry {} is bad ({}): {}", path, why,
                         writable() ? "deleted, the program is rebuilt" : "ignored");
    // Delete only the file we read: a writer may have renamed a good entry into place since.
    struct stat opened {
    }, current{};
    count(cache_counters().bad_entries);
    if (writable() && fstat(fd, &opened) == 0 && lstat(path.c_str(), &current) == 0 &&
        opened.st_ino == current.st_ino && opened.st_dev == current.st_dev &&
        unlink(path.c_str()) == 0) {
      count(cache_counters().healed);
    }
    close(fd);
    return std::nullopt;
  }
  if (writable()) futimens(fd, nullptr);  // the entry's last use, for pruning
  close(fd);
  return entry;
}

bool CacheStore::store(const std::string& hash, const CacheEntry& entry) {
  if (!writable()) return false;
  const std::string path = entry_path(hash);
  const std::string folder = path.substr(0, path.rfind('/'));
  std::string why;
  // Before mkdir -p as well: it would create the fan-out folder through a linked v1.
  if (!folders_below_root_real(path, "not caching")) return store_failed(hash, {});
  if (!make_folders(folder, why)) return store_failed(hash, why);
  if (!folders_below_root_real(path, "not caching")) return store_failed(hash, {});
  std::string temporary = folder + "/.tmp-" + hash + "-XXXXXX";
  int fd = mkostemp(temporary.data(), O_CLOEXEC);  // 0600, a name no other process holds
  if (fd < 0) return store_failed(hash, "cannot create a file in " + folder + ": " + errno_text());
  const std::string bytes = encode_entry(entry);
  stall_mid_write_if_asked(fd, bytes);
  bool written = write_all(fd, bytes) && fsync(fd) == 0;
  std::string failure = written ? "" : errno_text();
  close(fd);
  if (!written || rename(temporary.c_str(), path.c_str()) != 0) {
    if (failure.empty()) failure = errno_text();
    unlink(temporary.c_str());
    return store_failed(hash, "writing " + path + " failed: " + failure);
  }
  count(cache_counters().stores);
  logger("cache").debug("stored {} ({} bytes)", path, entry.binary.size());
  prune(settings_.max_size);
  return true;
}

// A full disk or a filesystem turned read-only fails every later write the same way: the
// first failure is a warning, later ones are debug lines, so a program is not flooded.
bool CacheStore::store_failed(const std::string& hash, const std::string& why) {
  count(cache_counters().store_failures);
  if (why.empty()) return false;  // already said (a linked folder is warned about each time)
  if (!warned_store_failure_.exchange(true)) {
    logger("cache").warn(
        "not caching {}: {}; programs are still built, and later failures to save are "
        "logged at debug level",
        hash, why);
  } else {
    logger("cache").debug("not caching {}: {}", hash, why);
  }
  return false;
}

void CacheStore::remove(const std::string& hash, const CacheEntry& entry, const std::string& why) {
  if (!writable()) return;
  const std::string path = entry_path(hash);
  if (!folders_below_root_real(path, "not removing")) return;
  // Only if the file still holds that entry: another process may have replaced it.
  CacheEntry current;
  std::string ignored;
  StoredEntry stored;
  stored.path = path;
  stored.hash = hash;
  if (read(stored, current, &ignored) && current.binary != entry.binary) return;
  logger("cache").warn("cache entry {} removed: {}", path, why);
  count(cache_counters().bad_entries);
  if (unlink(path.c_str()) == 0) count(cache_counters().healed);
}

std::vector<StoredEntry> CacheStore::entries() const {
  std::vector<StoredEntry> found;
  if (!readable()) return found;
  for_each_file(root_, [&](const std::string& path, const std::string& name) {
    if (name.size() <= 4 || name[0] == '.' || name.compare(name.size() - 4, 4, kSuffix) != 0) {
      return;
    }
    StoredEntry stored;
    stored.path = path;
    stored.hash = name.substr(0, name.size() - 4);
    struct stat info {};
    if (lstat(path.c_str(), &info) != 0) return;
    stored.size = static_cast<std::uint64_t>(info.st_size);
    stored.last_use = info.st_mtime;
    found.push_back(stored);
  });
  std::sort(found.begin(), found.end(),
            [](const StoredEntry& a, const StoredEntry& b) { return a.hash < b.hash; });
  return found;
}

bool CacheStore::read(const StoredEntry& stored, CacheEntry& entry, std::string* why) const {
  int fd = open_entry_file(stored.path);
  if (fd < 0) {
    if (why) *why = "cannot open: " + errno_text();
    return false;
  }
  std::string bytes;
  bool read_ok = read_file(fd, bytes);
  close(fd);
  if (!read_ok) {
    if (why) *why = "not a readable regular file";
    return false;
  }
  if (!parse_entry(bytes, entry, why)) return false;
  if (to_hex(sha256({entry.key})) != stored.hash) {
    if (why) *why = "its key does not hash to its file name";
    return false;
  }
  return true;
}

bool CacheStore::erase(const StoredEntry& stored) {
  return writable() && unlink(stored.path.c_str()) == 0;
}

// Temporary files of writers that died before renaming them; old enough to be sure.
void CacheStore::remove_abandoned() const {
  const std::time_t now = std::time(nullptr);
  for_each_file(root_, [&](const std::string& path, const std::string& name) {
    if (name.compare(0, 5, ".tmp-") != 0) return;
    struct stat info {};
    if (lstat(path.c_str(), &info) == 0 && now - info.st_mtime > kAbandonedAfterSeconds) {
      unlink(path.c_str());
    }
  });
}

std::vector<StoredEntry> CacheStore::prune(std::uint64_t max_size) {
  std::vector<StoredEntry> removed;
  if (!writable()) return removed;
  remove_abandoned();
  std::vector<StoredEntry> all = entries();
  std::uint64_t total = 0;
  for (const auto& stored : all) total += stored.size;
  if (total <= max_size) return removed;
  std::sort(all.begin(), all.end(), [](const StoredEntry& a, const StoredEntry& b) {
    return a.last_use != b.last_use ? a.last_use < b.last_use : a.hash < b.hash;
  });
  for (const auto& stored : all) {
    if (total <= max_size) break;
    const bool deleted = unlink(stored.path.c_str()) == 0;
    if (deleted || errno == ENOENT) {
      if (deleted) count(cache_counters().evictions);
      total -= stored.size;
      removed.push_back(stored);
      logger("cache").debug("evicted {} ({} bytes, least recently used)", stored.path, stored.size);
    }
  }
  return removed;
}

}  // namespace xgpu::detail
