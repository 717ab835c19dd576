// The cache folder on disk: checked ownership and permissions, entries fanned out by the
// first two hex digits of their hash, atomic writes, least-recently-used pruning.
//
//   <folder>/v1/ab/ab12...ef.xkc   one entry (see entry.hpp)
//   <folder>/v1/ab/.tmp-...        a write in progress, renamed into place when complete
//
// Use is tracked by each entry's modification time, set on every hit: unlike access
// times, it is kept on every mount (noatime, relatime). Nothing below the cache folder is
// reached through a symbolic link (no_follow.hpp).
#pragma once

#include <atomic>
#include <cstdint>
#include <ctime>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "cache/entry.hpp"
#include "cache/no_follow.hpp"
#include "cache/settings.hpp"

namespace xgpu::detail {

struct StoredEntry {
  std::string path;
  std::string hash;
  std::uint64_t size = 0;
  std::time_t last_use = 0;
};

class CacheStore {
 public:
  /// Checks (and creates, 0700) the folder; a folder that is not safe to use turns the
  /// store off with a warning that says why.
  explicit CacheStore(CacheSettings settings);

  bool readable() const { return settings_.mode != CacheMode::off; }
  bool writable() const { return settings_.mode == CacheMode::read_write; }
  const CacheSettings& settings() const { return settings_; }

  /// The entry stored under `hash` when it is sound and its key is `key`. A corrupt or
  /// mismatched entry is deleted (when writable) with a warning, and is a miss.
  std::optional<CacheEntry> load(const std::string& hash, const std::string& key);
  /// Writes atomically (temporary file, flush, rename), then prunes to the size cap. False
  /// when nothing was written: not writable, or a failure (the first one in the process is a
  /// warning, later ones debug lines).
  bool store(const std::string& hash, const CacheEntry& entry);
  /// Deletes the entry under `hash` if it still holds `entry` (a binary the driver refused).
  void remove(const std::string& hash, const CacheEntry& entry, const std::string& why);

  std::vector<StoredEntry> entries() const;
  /// Reads and checks one stored entry; false with the reason when it is bad.
  bool read(const StoredEntry& stored, CacheEntry& entry, std::string* why) const;
  /// Removes least recently used entries until the total is at most max_size; returns
  /// the entries removed. Also removes abandoned temporary files.
  std::vector<StoredEntry> prune(std::uint64_t max_size);
  bool erase(const StoredEntry& stored);

 private:
  /// The folder that holds the file at `path` (an entry's path under the cache folder), opened
  /// level by level from the cache folder, never through a link (no_follow.hpp).
  struct Parent {
    OwnedFd folder;     ///< invalid when a level is missing, a link, or cannot be opened
    std::string name;   ///< the file's name in it
    std::string error;  ///< why it is invalid; empty when missing (and not to be created) or
                        ///< when a link was already warned about
  };
  /// Missing levels are created (0700) when `create`. A level that is a link or not a folder is
  /// refused with a warning "<action> <path>: <level> is ...", each time: one was planted.
  Parent open_parent(const std::string& path, bool create, const char* action) const;
  std::string entry_path(const std::string& hash) const;
  /// read() of the file `parent` names, which should hold the entry of `hash`.
  static bool read_at(const Parent& parent, const std::string& hash, CacheEntry& entry,
                      std::string* why);
  static std::string check_folder(const std::string& folder, bool create);
  void refuse(const std::string& why);
  bool store_failed(const std::string& hash, const std::string& why);
  void remove_abandoned() const;

  CacheSettings settings_;
  std::string root_;  ///< <folder>/v1
  std::atomic<bool> warned_store_failure_{false};
};

}  // namespace xgpu::detail
