// The kernel cache from the inside, part 2: the folder store. Each case has its own
// temporary folder and store: security checks, atomic writes, loads of bad entries,
// read-only use, and least-recently-used pruning.
#include <stdio.h>  // renameat2

#include <atomic>
#include <functional>
#include <mutex>
#include <thread>

#include "cache/store.hpp"
#include "cache_test_support.hpp"
#include "log.hpp"

using namespace xgpu_cache_test;
using xgpu::detail::CacheStore;
using xgpu::detail::StoredEntry;

namespace {

// A store in a temporary folder holding one entry, "key", under its hash (entry_path).
struct OneEntry {
  TempFolder temp;
  const std::string folder = temp / "cache";
  CacheStore store{settings_for(folder)};
  const CacheEntry entry = make_entry("key");
  const std::string hash = hash_of(entry.key);
  const std::string path = entry_path(folder, hash);
  OneEntry() { store.store(hash, entry); }
};

}  // namespace

TEST_CASE("an entry stored is loaded back, from a private file", "[cache]") {
  TempFolder temp;
  const std::string folder = temp / "cache";
  CacheStore store(settings_for(folder));
  REQUIRE(store.writable());
  CHECK(mode_of(folder) == 0700);
  const CacheEntry entry = make_entry("key one", 3000);
  const std::string hash = hash_of(entry.key);
  store.store(hash, entry);
  const std::string path = entry_path(folder, hash);
  REQUIRE(exists(path));
  CHECK((mode_of(path) & 077) == 0);
  CHECK(files_under(folder).size() == 1);  // no temporary file left behind
  auto loaded = store.load(hash, entry.key);
  REQUIRE(loaded);
  CHECK(same(*loaded, entry));
  // The store's own view of it.
  auto listed = store.entries();
  REQUIRE(listed.size() == 1);
  CHECK(listed[0].hash == hash);
  CHECK(listed[0].path == path);
  CHECK(listed[0].size == read_bytes(path).size());
  CacheEntry read;
  std::string why;
  CHECK(store.read(listed[0], read, &why));
  // A second store of the same entry replaces it; still one file.
  store.store(hash, entry);
  CHECK(files_under(folder).size() == 1);
  // Nothing stored under another hash.
  CHECK_FALSE(store.load(hash_of("key two"), "key two"));
}

TEST_CASE("an entry with another key is a miss and is deleted", "[cache]") {
  TempFolder temp;
  CacheStore store(settings_for(temp / "cache"));
  const CacheEntry entry = make_entry("the real key");
  const std::string hash = hash_of(entry.key);
  store.store(hash, entry);
  // As a hash collision would look: same file name, another key asked for.
  CHECK_FALSE(store.load(hash, "another key"));
  CHECK_FALSE(exists(entry_path(temp / "cache", hash)));
}

TEST_CASE("a corrupt entry is a miss and is deleted", "[cache]") {
  TempFolder temp;
  const std::string folder = temp / "cache";
  CacheStore store(settings_for(folder));
  const CacheEntry entry = make_entry("key", 500);
  const std::string hash = hash_of(entry.key);
  const std::string path = entry_path(folder, hash);
  const std::string good = xgpu::detail::encode_entry(entry);
  std::string flipped = good;
  flipped[good.size() / 2] ^= 0x04;
  std::string wrong_version = good;
  wrong_version[8] = 2;
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"truncated", good.substr(0, good.size() / 2)},
      {"zero-length", ""},
      {"bit flipped", flipped},
      {"garbage", std::string(good.size(), 'z')},
      {"wrong version", wrong_version},
      {"trailing bytes", good + "!"},
      {"another key", xgpu::detail::encode_entry(make_entry("not the key", 500))}};
  for (const auto& [name, bytes] : cases) {
    DYNAMIC_SECTION(name) {
      store.store(hash, entry);
      REQUIRE(exists(path));
      write_bytes(path, bytes);
      CHECK_FALSE(store.load(hash, entry.key));
      CHECK_FALSE(exists(path));
      // And `verify`'s reader says it is bad too.
      write_bytes(path, bytes);
      auto listed = store.entries();
      REQUIRE(listed.size() == 1);
      CacheEntry read;
      std::string why;
      CHECK_FALSE(store.read(listed[0], read, &why));
      CHECK_FALSE(why.empty());
    }
  }
}

TEST_CASE_METHOD(OneEntry, "a symlink in place of an entry is not followed", "[cache]") {
  const std::string elsewhere = temp / "planted";
  write_bytes(elsewhere, read_bytes(path));
  REQUIRE(unlink(path.c_str()) == 0);
  REQUIRE(symlink(elsewhere.c_str(), path.c_str()) == 0);
  CHECK_FALSE(store.load(hash, entry.key));
  CHECK(read_bytes(elsewhere) == xgpu::detail::encode_entry(entry));  // the target untouched
}

TEST_CASE_METHOD(OneEntry, "a FIFO at an entry's path is refused without blocking", "[cache]") {
  REQUIRE(unlink(path.c_str()) == 0);
  REQUIRE(mkfifo(path.c_str(), 0600) == 0);
  // Without O_NONBLOCK either open waits for a writer that never comes: the test would hang
  // until CTest's timeout kills it. `verify`'s reader leaves the FIFO; a load deletes it.
  CacheEntry read;
  std::string why;
  StoredEntry stored;
  stored.path = path;
  stored.hash = hash;
  CHECK_FALSE(store.read(stored, read, &why));
  CHECK(why == "not a readable regular file");
  CHECK_FALSE(store.load(hash, entry.key));
  CHECK_FALSE(exists(path));
  // The next store puts a good entry back in its place.
  store.store(hash, entry);
  auto loaded = store.load(hash, entry.key);
  REQUIRE(loaded);
  CHECK(same(*loaded, entry));
}

TEST_CASE("a symlink at any level below the cache folder is never followed", "[cache]") {
  const CacheEntry entry = make_entry("key");
  const std::string hash = hash_of(entry.key);
  for (const std::string level : {"v1", "fan-out"}) {
    DYNAMIC_SECTION(level) {
      TempFolder temp;
      const std::string folder = temp / "cache";
      const std::string elsewhere = temp / "elsewhere";
      REQUIRE(mkdir(elsewhere.c_str(), 0700) == 0);
      CacheStore store(settings_for(folder));
      REQUIRE(store.writable());
      const std::string path = entry_path(folder, hash);
      const std::string fan_out = path.substr(0, path.rfind('/'));
      const std::string linked = level == "v1" ? folder + "/v1" : fan_out;
      if (level == "fan-out") REQUIRE(mkdir((folder + "/v1").c_str(), 0700) == 0);
      // A good entry where the link points: loading through the link would find it.
      if (level == "v1") {
        const std::string target_fan = elsewhere + fan_out.substr(folder.size() + 3);
        REQUIRE(mkdir(target_fan.c_str(), 0700) == 0);
        write_bytes(target_fan + path.substr(fan_out.size()), xgpu::detail::encode_entry(entry));
      } else {
        write_bytes(elsewhere + path.substr(fan_out.size()), xgpu::detail::encode_entry(entry));
      }
      const std::vector<std::string> planted = files_under(elsewhere);
      REQUIRE(planted.size() == 1);
      REQUIRE(symlink(elsewhere.c_str(), linked.c_str()) == 0);
      CHECK_FALSE(store.load(hash, entry.key));  // not read through the link
      store.store(hash, entry);                  // not written through it
      store.remove(hash, entry, "test");         // not deleted through it
      CHECK(store.entries().empty());            // not listed through it
      CHECK(store.prune(0).empty());             // not pruned through it
      CHECK(files_under(elsewhere) == planted);
    }
  }
}

namespace {

// The attacker's best moment against a check-then-open: right after the check. While set,
// every lstat() this process makes of the watched path is followed at once by the swap. The
// test executable defines lstat() itself (below), so the store's own calls, linked into it,
// come here; the drivers' and libraries' do not.
std::mutex g_watch_mutex;
std::string g_watched;
std::function<void()> g_swap_after_check;

}  // namespace

extern "C" int lstat(const char* path, struct stat* info) noexcept {
  const int result = fstatat(AT_FDCWD, path, info, AT_SYMLINK_NOFOLLOW);
  std::lock_guard<std::mutex> lock(g_watch_mutex);
  if (g_swap_after_check && g_watched == path) g_swap_after_check();
  return result;
}

// A layout or fan-out folder swapped for a link (renameat2 RENAME_EXCHANGE, atomic) while the
// store loads an entry that only the link's target holds, stores another beside it and
// prunes: swapped all the time from another thread, and swapped right after every check of
// that folder (a check that the open then trusts). The store opens each level inside the one
// above with O_NOFOLLOW, so no moment exists at which the link is followed.
TEST_CASE("a folder swapped for a link while the store works is never followed", "[cache]") {
  const CacheEntry entry = make_entry("key");
  const std::string hash = hash_of(entry.key);
  // Another entry in the same fan-out folder, to store while the swaps go on.
  CacheEntry other;
  for (int i = 0; other.key.empty() || hash_of(other.key).compare(0, 2, hash, 0, 2) != 0; ++i) {
    other = make_entry("other " + std::to_string(i));
  }
  for (const std::string level : {"v1", "fan-out"}) {
    for (const std::string when : {"all the time", "after every check"}) {
      DYNAMIC_SECTION(level << ", swapped " << when) {
        TempFolder temp;
        const std::string folder = temp / "cache";
        const std::string elsewhere = temp / "elsewhere";
        CacheStore store(settings_for(folder));
        REQUIRE(store.writable());
        const std::string path = entry_path(folder, hash);
        const std::string fan_out = path.substr(0, path.rfind('/'));
        const std::string swapped = level == "v1" ? folder + "/v1" : fan_out;
        const std::string link = swapped + "-link";
        // The real folders hold nothing; through the link, the entry is where a load looks.
        REQUIRE(fs::create_directories(fan_out));
        const std::string planted = elsewhere + path.substr(folder.size());
        REQUIRE(fs::create_directories(planted.substr(0, planted.rfind('/'))));
        write_bytes(planted, xgpu::detail::encode_entry(entry));
        const std::vector<std::string> planted_files = files_under(elsewhere);
        const std::string target = elsewhere + swapped.substr(folder.size());
        REQUIRE(symlink(target.c_str(), link.c_str()) == 0);
        std::atomic<long> swaps{0};
        auto exchange = [&] {
          const bool done =
              renameat2(AT_FDCWD, swapped.c_str(), AT_FDCWD, link.c_str(), RENAME_EXCHANGE) == 0;
          if (done) swaps.fetch_add(1);
          return done;
        };
        if (!exchange() || !exchange()) {
          WARN("renameat2(RENAME_EXCHANGE) fails here ("
               << std::strerror(errno) << "): cannot swap atomically; case skipped");
          return;
        }
        swaps = 0;
        // The real folder back in place, if the link is there.
        auto real_in_place = [&] {
          struct stat info {};
          if (fstatat(AT_FDCWD, swapped.c_str(), &info, AT_SYMLINK_NOFOLLOW) == 0 &&
              S_ISLNK(info.st_mode))
            exchange();
        };
        std::atomic<bool> stop{false};
        std::thread swapper;
        if (when == "all the time") {
          swapper = std::thread([&] {
            while (!stop.load() && exchange()) {
            }
          });
        } else {
          std::lock_guard<std::mutex> lock(g_watch_mutex);
          g_watched = swapped;
          g_swap_after_check = [&] { exchange(); };
        }
        // Each refusal is a warning (a planted link is worth one): not thousands of them here.
        auto& log = xgpu::detail::logger("cache");
        const auto level_before = log.level();
        log.set_level(spdlog::level::off);
        int read_through = 0;
        const int tries = when == "all the time" ? 4000 : 200;
        for (int i = 0; i < tries; ++i) {
          read_through += store.load(hash, entry.key).has_value() ? 1 : 0;
          if (when != "all the time") real_in_place();
          if (i % 16 == 0) store.store(hash_of(other.key), other);
          if (when != "all the time") real_in_place();
          if (i % 64 == 0) store.prune(1ull << 30);
          if (when != "all the time") real_in_place();
        }
        stop = true;
        if (swapper.joinable()) swapper.join();
        {
          std::lock_guard<std::mutex> lock(g_watch_mutex);
          g_swap_after_check = nullptr;
        }
        log.set_level(level_before);
        INFO(swaps.load() << " swaps during " << tries << " loads");
        // The swaps took place, how many the machine's load decides. After every check: none
        // here, since the store makes no check of a folder apart from the open (a store that
        // checked with lstat, then opened, read the planted entry at each load).
        if (when == "all the time") CHECK(swaps.load() > 0);
        CHECK(read_through == 0);
        CHECK(files_under(elsewhere) == planted_files);  // nothing written nor removed there
      }
    }
  }
}

TEST_CASE("an unsafe cache folder is refused and nothing is written", "[cache]") {
  TempFolder temp;
  const CacheEntry entry = make_entry("key");
  const std::string hash = hash_of(entry.key);
  auto check_refused = [&](const std::string& folder, const std::string& reason) {
    CacheStore store(settings_for(folder));
    CHECK_FALSE(store.readable());
    CHECK_FALSE(store.writable());
    CHECK_THAT(store.settings().note, Catch::Matchers::Contains(reason));
    const auto before = files_under(temp.path());
    store.store(hash, entry);
    CHECK_FALSE(store.load(hash, entry.key));
    CHECK(store.prune(0).empty());
    CHECK(files_under(temp.path()) == before);
  };
  SECTION("a regular file") {
    write_bytes(temp / "file", "not a folder");
    check_refused(temp / "file", "not a folder");
    CHECK(read_bytes(temp / "file") == "not a folder");
  }
  SECTION("writable by everyone") {
    REQUIRE(mkdir((temp / "open").c_str(), 0700) == 0);
    REQUIRE(chmod((temp / "open").c_str(), 0777) == 0);
    check_refused(temp / "open", "writable by other users");
  }
  SECTION("writable by the group") {
    REQUIRE(mkdir((temp / "group").c_str(), 0700) == 0);
    REQUIRE(chmod((temp / "group").c_str(), 0770) == 0);
    check_refused(temp / "group", "writable by other users");
  }
  SECTION("a symlink to a good folder") {
    REQUIRE(mkdir((temp / "real").c_str(), 0700) == 0);
    REQUIRE(symlink((temp / "real").c_str(), (temp / "link").c_str()) == 0);
    check_refused(temp / "link", "symbolic link");
    CHECK(files_under(temp / "real").empty());
  }
  SECTION("owned by another user") {
    if (geteuid() != 0) {
      WARN("not root: cannot give a folder to another user; case skipped");
      return;
    }
    REQUIRE(mkdir((temp / "theirs").c_str(), 0700) == 0);
    REQUIRE(chown((temp / "theirs").c_str(), 65534, 65534) == 0);
    check_refused(temp / "theirs", "belongs to user id 65534");
  }
}

TEST_CASE("a missing cache folder is created, private, with its parents", "[cache]") {
  TempFolder temp;
  const std::string folder = temp / "a/b/c";
  CacheStore store(settings_for(folder));
  CHECK(store.writable());
  CHECK(mode_of(temp / "a") == 0700);
  CHECK(mode_of(temp / "a/b") == 0700);
  CHECK(mode_of(folder) == 0700);
  const CacheEntry entry = make_entry("key");
  store.store(hash_of(entry.key), entry);
  const std::string path = entry_path(folder, hash_of(entry.key));
  REQUIRE(exists(path));
  // The layout folders under it are private too.
  CHECK(mode_of(folder + "/v1") == 0700);
  CHECK(mode_of(path.substr(0, path.rfind('/'))) == 0700);
}

TEST_CASE("read-only mode never writes", "[cache]") {
  TempFolder temp;
  const std::string folder = temp / "cache";
  const CacheEntry entry = make_entry("key");
  const std::string hash = hash_of(entry.key);
  SECTION("on a missing folder: not even the folder is created") {
    CacheStore store(settings_for(folder, CacheMode::read_only));
    CHECK_FALSE(store.writable());
    store.store(hash, entry);
    CHECK_FALSE(store.load(hash, entry.key));
    CHECK_FALSE(exists(folder));
  }
  SECTION("on an empty folder") {
    REQUIRE(mkdir(folder.c_str(), 0700) == 0);
    CacheStore store(settings_for(folder, CacheMode::read_only));
    CHECK(store.readable());
    CHECK_FALSE(store.writable());
    store.store(hash, entry);
    CHECK(files_under(folder).empty());
    CHECK_FALSE(exists(folder + "/v1"));
  }
  SECTION("on a filled folder: loads, but neither deletes, touches nor prunes") {
    {
      CacheStore writer(settings_for(folder));
      writer.store(hash, entry);
      writer.store(hash_of("other"), make_entry("other"));
    }
    const std::string path = entry_path(folder, hash);
    set_mtime(path, 1000000000);
    CacheStore store(settings_for(folder, CacheMode::read_only));
    auto loaded = store.load(hash, entry.key);
    REQUIRE(loaded);
    CHECK(same(*loaded, entry));
    struct stat info {};
    REQUIRE(stat(path.c_str(), &info) == 0);
    CHECK(info.st_mtime == 1000000000);  // a hit does not write the use time
    CHECK(store.prune(0).empty());
    CHECK(files_under(folder).size() == 2);
    // A bad entry is ignored, not deleted.
    write_bytes(path, "garbage");
    CHECK_FALSE(store.load(hash, entry.key));
    CHECK(exists(path));
    auto listed = store.entries();
    REQUIRE(listed.size() == 2);
    CHECK_FALSE(store.erase(listed[0]));
    CHECK(files_under(folder).size() == 2);
  }
  SECTION("a folder the user cannot write is silently read-only") {
    REQUIRE(mkdir(folder.c_str(), 0700) == 0);
    REQUIRE(chmod(folder.c_str(), 0500) == 0);
    CacheStore store(settings_for(folder));
    CHECK(store.readable());
    if (geteuid() == 0) {
      WARN("running as root, who can write any folder: only readable() checked");
      return;
    }
    CHECK_FALSE(store.writable());
    store.store(hash, entry);
    CHECK(files_under(folder).empty());
  }
}

TEST_CASE("pruning removes the least recently used entries first", "[cache]") {
  TempFolder temp;
  const std::string folder = temp / "cache";
  CacheStore store(settings_for(folder));
  std::vector<std::string> hashes;
  std::uint64_t entry_size = 0;
  for (int i = 0; i < 4; ++i) {
    CacheEntry entry = make_entry("key " + std::to_string(i), 1000);
    hashes.push_back(hash_of(entry.key));
    store.store(hashes.back(), entry);
    entry_size = read_bytes(entry_path(folder, hashes.back())).size();
  }
  // Last use: entry 2 oldest, then 0, 3, 1.
  const std::time_t base = std::time(nullptr) - 100000;
  const int order[4] = {2, 0, 3, 1};
  for (int rank = 0; rank < 4; ++rank) {
    set_mtime(entry_path(folder, hashes[order[rank]]), base + 1000 * rank);
  }
  SECTION("down to a cap") {
    auto removed = store.prune(2 * entry_size + entry_size / 2);  // room for two
    REQUIRE(removed.size() == 2);
    CHECK(removed[0].hash == hashes[2]);
    CHECK(removed[1].hash == hashes[0]);
    CHECK_FALSE(exists(entry_path(folder, hashes[2])));
    CHECK_FALSE(exists(entry_path(folder, hashes[0])));
    CHECK(exists(entry_path(folder, hashes[3])));
    CHECK(exists(entry_path(folder, hashes[1])));
    CHECK(store.prune(2 * entry_size).empty());  // exactly at the cap: nothing to do
    CHECK(store.prune(0).size() == 2);
    CHECK(store.entries().empty());
  }
  SECTION("a hit counts as a use") {
    REQUIRE(store.load(hashes[2], "key 2"));  // the oldest becomes the newest
    auto removed = store.prune(entry_size);
    REQUIRE(removed.size() == 3);
    CHECK(removed[0].hash == hashes[0]);
    CHECK(removed[1].hash == hashes[3]);
    CHECK(removed[2].hash == hashes[1]);
    CHECK(exists(entry_path(folder, hashes[2])));
  }
  SECTION("storing prunes to the store's own cap") {
    CacheStore capped(settings_for(folder, CacheMode::read_write, 2 * entry_size));
    CacheEntry fifth = make_entry("key 4", 1000);
    capped.store(hash_of(fifth.key), fifth);
    CHECK(exists(entry_path(folder, hash_of(fifth.key))));  // the new one is kept
    CHECK(capped.entries().size() == 2);
    CHECK(exists(entry_path(folder, hashes[1])));  // with the most recently used other
  }
}

TEST_CASE("pruning removes abandoned temporary files, and only old ones", "[cache]") {
  TempFolder temp;
  const std::string folder = temp / "cache";
  CacheStore store(settings_for(folder));
  const CacheEntry entry = make_entry("key");
  const std::string hash = hash_of(entry.key);
  store.store(hash, entry);
  const std::string fan = folder + "/v1/" + hash.substr(0, 2);
  const std::string old_temporary = fan + "/.tmp-" + hash + "-AAAAAA";
  const std::string fresh_temporary = fan + "/.tmp-" + hash + "-BBBBBB";
  write_bytes(old_temporary, "half an entry");
  write_bytes(fresh_temporary, "a write in progress");
  set_mtime(old_temporary, std::time(nullptr) - 2 * 3600);
  // Temporary files are not entries.
  CHECK(store.entries().size() == 1);
  CHECK(store.prune(1ull << 40).empty());
  CHECK_FALSE(exists(old_temporary));
  CHECK(exists(fresh_temporary));  // another process may still be writing it
  CHECK(exists(entry_path(folder, hash)));
}

TEST_CASE("an entry whose key does not hash to its file name fails verification", "[cache]") {
  TempFolder temp;
  const std::string folder = temp / "cache";
  CacheStore store(settings_for(folder));
  const CacheEntry entry = make_entry("key");
  const std::string wrong_hash = hash_of("some other key");
  store.store(wrong_hash, entry);  // a well-formed entry under the wrong name
  auto listed = store.entries();
  REQUIRE(listed.size() == 1);
  CacheEntry read;
  std::string why;
  CHECK_FALSE(store.read(listed[0], read, &why));
  CHECK_THAT(why, Catch::Matchers::Contains("hash"));
  CHECK_FALSE(store.load(wrong_hash, "some other key"));  // and a load misses, deleting it
  CHECK(store.entries().empty());
}
