// The cache folder; see store.hpp. Nothing below the cache folder is followed through a
// symbolic link: every level is opened inside the one above with O_NOFOLLOW (no_follow.hpp),
// and a layout or fan-out folder that is a link (planted to make xgpu read or write elsewhere)
// is refused. Entries are opened with O_NONBLOCK, so that a FIFO planted at an entry's path
// cannot stall a program: it is then refused as not a regular file.
#include "cache/store.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
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

// A listing of an open folder; closes it.
class Listing {
 public:
  explicit Listing(OwnedFd folder) {
    const int fd = folder.release();
    if (fd >= 0 && (dir_ = fdopendir(fd)) == nullptr) close(fd);
  }
  Listing(const Listing&) = delete;
  Listing& operator=(const Listing&) = delete;
  ~Listing() {
    if (dir_) closedir(dir_);
  }
  /// The next name other than "." and "..", or nullptr at the end.
  const char* next() {
    while (dir_) {
      const dirent* found = readdir(dir_);
      if (!found) return nullptr;
      if (std::strcmp(found->d_name, ".") != 0 && std::strcmp(found->d_name, "..") != 0)
        return found->d_name;
    }
    return nullptr;
  }
  int fd() const { return dir_ ? dirfd(dir_) : -1; }

 private:
  DIR* dir_ = nullptr;
};

// Calls visit(folder, path, name) for every file of the fan-out folders under <top>/v1, with
// `folder` the fan-out folder open; no level is reached through a link.
template <class Visit>
void for_each_file(const std::string& top, Visit&& visit) {
  OwnedFd cache = open_folder_at(AT_FDCWD, top, false);
  if (!cache) return;
  Listing fans(open_folder_at(cache.get(), kLayout, false));
  while (const char* fan = fans.next()) {
    if (fan[0] == '.') continue;
    Listing files(open_folder_at(fans.fd(), fan, false));
    const std::string folder = top + "/" + kLayout + "/" + fan;
    while (const char* file = files.next()) visit(files.fd(), folder + "/" + file, file);
  }
}

// Creates a temporary file for an entry in `folder`, 0600, under a name no other writer holds
// (O_EXCL decides; the process id and a count make a clash rare).
OwnedFd create_temporary(int folder, const std::string& hash, std::string& name) {
  static std::atomic<unsigned> count{0};
  for (int attempt = 0; attempt < 100; ++attempt) {
    name = ".tmp-" + hash + "-" + std::to_string(getpid()) + "-" + std::to_string(count++);
    OwnedFd file(
        openat(folder, name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
    if (file || errno != EEXIST) return file;
  }
  return OwnedFd();
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
CacheStore::Parent CacheStore::open_parent(const std::string& path, bool create,
                                           const char* action) const {
  Parent parent;
  const std::string& top = settings_.folder;
  if (path.size() <= top.size() || path.compare(0, top.size(), top) != 0 ||
      path[top.size()] != '/') {
    parent.error = path + " is not in the cache folder " + top;
    return parent;
  }
  // The cache folder itself was checked when the store was made (check_folder); it is not
  // followed either if it has become a link since.
  OwnedFd folder = open_folder_at(AT_FDCWD, top, false);
  if (!folder && errno == ENOENT && create) {
    if (!make_folders(top, parent.error)) return parent;
    folder = open_folder_at(AT_FDCWD, top, false);
  }
  if (!folder) {
    if (errno != ENOENT || create) parent.error = "cannot open " + top + ": " + errno_text();
    return parent;
  }
  std::string reached = top;
  std::size_t start = top.size() + 1;
  for (std::size_t slash; (slash = path.find('/', start)) != std::string::npos; start = slash + 1) {
    const std::string level = path.substr(start, slash - start);
    reached += "/" + level;
    OwnedFd next = open_folder_at(folder.get(), level, create);
    if (!next) {
      const int error = errno;
      if (error == ENOENT && !create) return parent;  // nothing there yet
      const std::string why = why_not_a_folder(folder.get(), level, error);
      if (error == ENOTDIR) {
        logger("cache").warn("{} {}: {} is {}", action, path, reached, why);
      } else {
        parent.error = "cannot open " + reached + ": " + why;
      }
      return parent;
    }
    folder = std::move(next);
  }
  parent.folder = std::move(folder);
  parent.name = path.substr(start);
  return parent;
}

std::string CacheStore::entry_path(const std::string& hash) const {
  return root_ + "/" + hash.substr(0, 2) + "/" + hash + kSuffix;
}

std::optional<CacheEntry> CacheStore::load(const std::string& hash, const std::string& key) {
  if (!readable()) return std::nullopt;
  const std::string path = entry_path(hash);
  Parent parent = open_parent(path, false, "not reading");
  if (!parent.folder) {
    if (!parent.error.empty()) logger("cache").warn("cannot read cache entry: {}", parent.error);
    return std::nullopt;
  }
  OwnedFd file = open_file_at(parent.folder.get(), parent.name);
  if (!file) {
    if (errno != ENOENT) logger("cache").warn("cannot open cache entry {}: {}", path, errno_text());
    return std::nullopt;
  }
  const int fd = file.get();
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
    const int folder = parent.folder.get();
    const char* name = parent.name.c_str();
    if (writable() && fstat(fd, &opened) == 0 &&
        fstatat(folder, name, &current, AT_SYMLINK_NOFOLLOW) == 0 &&
        opened.st_ino == current.st_ino && opened.st_dev == current.st_dev &&
        unlinkat(folder, name, 0) == 0) {
      count(cache_counters().healed);
    }
    return std::nullopt;
  }
  if (writable()) futimens(fd, nullptr);  // the entry's last use, for pruning
  return entry;
}

bool CacheStore::store(const std::string& hash, const CacheEntry& entry) {
  if (!writable()) return false;
  const std::string path = entry_path(hash);
  const std::string folder = path.substr(0, path.rfind('/'));
  Parent parent = open_parent(path, true, "not caching");
  if (!parent.folder) return store_failed(hash, parent.error);
  std::string temporary;
  OwnedFd file = create_temporary(parent.folder.get(), hash, temporary);
  if (!file) return store_failed(hash, "cannot create a file in " + folder + ": " + errno_text());
  const std::string bytes = encode_entry(entry);
  stall_mid_write_if_asked(file.get(), bytes);
  bool written = write_all(file.get(), bytes) && fsync(file.get()) == 0;
  std::string failure = written ? "" : errno_text();
  file = OwnedFd();  // closed before the rename
  const int at = parent.folder.get();
  if (!written || renameat(at, temporary.c_str(), at, parent.name.c_str()) != 0) {
    if (failure.empty()) failure = errno_text();
    unlinkat(at, temporary.c_str(), 0);
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
  Parent parent = open_parent(path, false, "not removing");
  if (!parent.folder) return;
  // Only if the file still holds that entry: another process may have replaced it.
  CacheEntry current;
  if (read_at(parent, hash, current, nullptr) && current.binary != entry.binary) return;
  logger("cache").warn("cache entry {} removed: {}", path, why);
  count(cache_counters().bad_entries);
  if (unlinkat(parent.folder.get(), parent.name.c_str(), 0) == 0) count(cache_counters().healed);
}

std::vector<StoredEntry> CacheStore::entries() const {
  std::vector<StoredEntry> found;
  if (!readable()) return found;
  for_each_file(settings_.folder, [&](int folder, const std::string& path, std::string name) {
    if (name.size() <= 4 || name[0] == '.' || name.compare(name.size() - 4, 4, kSuffix) != 0) {
      return;
    }
    StoredEntry stored;
    stored.path = path;
    stored.hash = name.substr(0, name.size() - 4);
    struct stat info {};
    if (fstatat(folder, name.c_str(), &info, AT_SYMLINK_NOFOLLOW) != 0) return;
    stored.size = static_cast<std::uint64_t>(info.st_size);
    stored.last_use = info.st_mtime;
    found.push_back(stored);
  });
  std::sort(found.begin(), found.end(),
            [](const StoredEntry& a, const StoredEntry& b) { return a.hash < b.hash; });
  return found;
}

bool CacheStore::read(const StoredEntry& stored, CacheEntry& entry, std::string* why) const {
  Parent parent = open_parent(stored.path, false, "not reading");
  if (!parent.folder) {
    if (why)
      *why = parent.error.empty() ? "cannot open: a folder above it is missing or a link"
                                  : parent.error;
    return false;
  }
  return read_at(parent, stored.hash, entry, why);
}

bool CacheStore::read_at(const Parent& parent, const std::string& hash, CacheEntry& entry,
                         std::string* why) {
  OwnedFd file = open_file_at(parent.folder.get(), parent.name);
  if (!file) {
    if (why) *why = "cannot open: " + errno_text();
    return false;
  }
  std::string bytes;
  if (!read_file(file.get(), bytes)) {
    if (why) *why = "not a readable regular file";
    return false;
  }
  if (!parse_entry(bytes, entry, why)) return false;
  if (to_hex(sha256({entry.key})) != hash) {
    if (why) *why = "its key does not hash to its file name";
    return false;
  }
  return true;
}

bool CacheStore::erase(const StoredEntry& stored) {
  if (!writable()) return false;
  Parent parent = open_parent(stored.path, false, "not removing");
  return parent.folder && unlinkat(parent.folder.get(), parent.name.c_str(), 0) == 0;
}

// Temporary files of writers that died before renaming them; old enough to be sure.
void CacheStore::remove_abandoned() const {
  const std::time_t now = std::time(nullptr);
  for_each_file(settings_.folder, [&](int folder, const std::string&, const std::string& name) {
    if (name.compare(0, 5, ".tmp-") != 0) return;
    struct stat info {};
    if (fstatat(folder, name.c_str(), &info, AT_SYMLINK_NOFOLLOW) == 0 &&
        now - info.st_mtime > kAbandonedAfterSeconds) {
      unlinkat(folder, name.c_str(), 0);
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
    Parent parent = open_parent(stored.path, false, "not pruning");
    if (!parent.folder) continue;
    const bool deleted = unlinkat(parent.folder.get(), parent.name.c_str(), 0) == 0;
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
