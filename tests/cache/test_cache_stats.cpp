// The kernel cache from the inside, part 4: xgpu::cache_stats(), the process-wide counters,
// the counters file every process adds them to (<folder>/counters), and the log capture.
// The counters are shared by every test of this process, so each case compares a snapshot
// taken after flushing earlier tests' pending writes with one taken after its own steps.
#include <random>
#include <thread>

#include "cache/kernel_cache.hpp"
#include "cache/shared_counters.hpp"
#include "cache/store.hpp"
#include "cache_test_support.hpp"
#include "log.hpp"
#include "xgpu/log.hpp"

using namespace xgpu_cache_test;
using xgpu::detail::CacheStore;

namespace {

xgpu::CacheStats quiet_snapshot() {
  xgpu::cache::flush();  // an earlier test's program saved now would count as ours
  return xgpu::cache_stats();
}

std::string fresh_kernel() {
  static std::mt19937_64 random(std::random_device{}());
  return "// " + std::to_string(random()) +
         "\nkernel void counted(global int* x) { x[get_global_id(0)] = 3 * (int)get_global_id(0); "
         "}\n";
}

}  // namespace

TEST_CASE("cache_stats counts what the store does", "[cache]") {
  TempFolder temp;
  const std::string folder = temp / "cache";
  CacheStore store(settings_for(folder));
  const CacheEntry entry = make_entry("counted key", 400);
  const std::string hash = hash_of(entry.key);

  xgpu::CacheStats before = quiet_snapshot();
  CHECK(store.store(hash, entry));
  CHECK(store.load(hash, entry.key));  // a hit is counted by Context::build, not the store
  xgpu::CacheStats d = xgpu::cache_stats() - before;
  CHECK(d.stores == 1);
  CHECK(d.store_failures == 0);
  CHECK(d.bad_entries == 0);

  SECTION("a corrupt entry is bad and healed (deleted) when writable") {
    write_bytes(entry_path(folder, hash), "not an entry");
    before = xgpu::cache_stats();
    CHECK_FALSE(store.load(hash, entry.key));
    d = xgpu::cache_stats() - before;
    CHECK(d.bad_entries == 1);
    CHECK(d.healed == 1);
  }
  SECTION("a corrupt entry is bad but kept when read-only") {
    write_bytes(entry_path(folder, hash), "not an entry");
    CacheStore reader(settings_for(folder, CacheMode::read_only));
    before = xgpu::cache_stats();
    CHECK_FALSE(reader.load(hash, entry.key));
    d = xgpu::cache_stats() - before;
    CHECK(d.bad_entries == 1);
    CHECK(d.healed == 0);
    CHECK(exists(entry_path(folder, hash)));
  }
  SECTION("an entry the driver refused is bad and healed") {
    before = xgpu::cache_stats();
    store.remove(hash, entry, "test: the driver refused it");
    d = xgpu::cache_stats() - before;
    CHECK(d.bad_entries == 1);
    CHECK(d.healed == 1);
  }
  SECTION("pruning counts evictions") {
    CHECK(store.store(hash_of("second"), make_entry("second", 400)));
    before = xgpu::cache_stats();
    CHECK(store.prune(0).size() == 2);
    d = xgpu::cache_stats() - before;
    CHECK(d.evictions == 2);
  }
  SECTION("a write that cannot happen is a store failure, and returns false") {
    // A file where the fan-out folder of another entry should be: mkdir -p fails.
    const std::string other = hash_of("blocked");
    REQUIRE((mkdir((folder + "/v1").c_str(), 0700) == 0 || errno == EEXIST));
    write_bytes(folder + "/v1/" + other.substr(0, 2), "in the way");
    before = xgpu::cache_stats();
    CHECK_FALSE(store.store(other, make_entry("blocked")));
    CHECK_FALSE(store.store(other, make_entry("blocked")));
    d = xgpu::cache_stats() - before;
    CHECK(d.store_failures == 2);
    CHECK(d.stores == 0);
  }
}

TEST_CASE("cache_stats is exact under concurrent stores and loads", "[cache]") {
  TempFolder temp;
  CacheStore store(settings_for(temp / "cache"));
  constexpr int kThreads = 8, kEach = 25;
  const xgpu::CacheStats before = quiet_snapshot();
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&store, t] {
      for (int i = 0; i < kEach; ++i) {
        const std::string key = "thread " + std::to_string(t) + " entry " + std::to_string(i);
        store.store(hash_of(key), make_entry(key, 64));
        // Its first entry is also asked for under another key: bad, and deleted (healed).
        if (i == 0) store.load(hash_of(key), "a key that is not this entry's");
      }
    });
  }
  for (auto& thread : threads) thread.join();
  const xgpu::CacheStats d = xgpu::cache_stats() - before;
  CHECK(d.stores == std::uint64_t{kThreads * kEach});
  CHECK(d.bad_entries == kThreads);  // each thread's mismatched key
  CHECK(d.healed == kThreads);
  CHECK(d.store_failures == 0);
}

TEST_CASE("cache_stats counts a miss, then a hit in another context", "[cache]") {
  auto& cache = xgpu::detail::KernelCache::instance();
  if (!xgpu_test::env("XGPU_CACHE_DIR") || !cache.store().writable()) {
    WARN("no writable test cache folder (XGPU_CACHE_DIR): case skipped");
    return;
  }
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      const xgpu::Source source{"counted.cl", fresh_kernel()};
      xgpu::CacheStats before = quiet_snapshot();
      xgpu::Context first(device);
      xgpu::Program built = first.build(source);
      xgpu::CacheStats d = xgpu::cache_stats() - before;
      CHECK(d.misses == 1);
      CHECK(d.hits == 0);
      CHECK(d.read_only_skips == 0);
      xgpu::Queue queue = first.queue();
      xgpu::Buffer<int> x = first.alloc<int>(32);
      queue.launch(built.kernel("counted"), xgpu::Range{32}, x);
      queue.finish();
      xgpu::cache::flush();
      d = xgpu::cache_stats() - before;
      if (d.stores == 0) {  // allowed only for a driver that gives no binaries back
        CHECK_FALSE(xgpu_test::is_pocl(device));
        continue;
      }
      CHECK(d.stores == 1);
      before = xgpu::cache_stats();
      xgpu::Context second(device);
      xgpu::Program loaded = second.build(source);
      d = xgpu::cache_stats() - before;
      CHECK(d.hits == 1);
      CHECK(d.misses == 0);
      // Built twice in one context: answered in memory, not counted as a disk hit again.
      second.build(source);
      CHECK((xgpu::cache_stats() - before).hits == 1);
    }
  }
}

TEST_CASE("the counters file adds up, reads back, and replaces a damaged file", "[cache]") {
  TempFolder folder;
  xgpu::set_log_level("warn");  // the damage warnings are checked
  using xgpu::detail::add_shared_counters;
  using xgpu::detail::read_shared_counters;
  xgpu::detail::SharedCounters none = read_shared_counters(folder.path());
  CHECK(none.since == 0);
  CHECK(none.problem.empty());
  xgpu::CacheStats delta;
  delta.hits = 3, delta.misses = 1, delta.stores = 1, delta.healed = 2, delta.evictions = 7;
  REQUIRE(add_shared_counters(folder.path(), delta));
  REQUIRE(add_shared_counters(folder.path(), delta));
  xgpu::detail::SharedCounters two = read_shared_counters(folder.path());
  CHECK(two.problem.empty());
  CHECK(two.since > 0);
  CHECK(two.totals.hits == 6);
  CHECK(two.totals.misses == 2);
  CHECK(two.totals.stores == 2);
  CHECK(two.totals.healed == 4);
  CHECK(two.totals.evictions == 14);
  CHECK(two.totals.bad_entries == 0);
  struct stat info {};
  REQUIRE(stat((folder.path() + "/counters").c_str(), &info) == 0);
  CHECK((info.st_mode & 0777) == 0600);

  // Damage of each kind: read as a problem (zeros), then replaced by the next update.
  for (const char* damage :
       {"garbage\n", "xgpu cache counters 1\nhits -1\n", "xgpu cache counters 1\nhits 1\nhits 2\n",
        "xgpu cache counters 1\nhits 99999999999999999999999\n"}) {
    std::ofstream(folder.path() + "/counters", std::ios::trunc) << damage;
    xgpu::detail::SharedCounters damaged = read_shared_counters(folder.path());
    CHECK_THAT(damaged.problem, Catch::Contains("is damaged"));
    CHECK(damaged.totals.hits == 0);
    xgpu::ScopedLogCapture log;
    REQUIRE(add_shared_counters(folder.path(), delta));
    CHECK_THAT(log.text(), Catch::Contains("counters file") && Catch::Contains("is damaged"));
    CHECK(read_shared_counters(folder.path()).totals.hits == 3);
  }
  REQUIRE(xgpu::detail::reset_shared_counters(folder.path()));
  xgpu::detail::SharedCounters reset = read_shared_counters(folder.path());
  CHECK(reset.totals.hits == 0);
  CHECK(reset.since > 0);
}

TEST_CASE("the counters file is never followed through a link", "[cache]") {
  TempFolder folder, elsewhere;
  const std::string target = elsewhere.path() + "/planted";
  std::ofstream(target) << "xgpu cache counters 1\nhits 5\n";
  REQUIRE(symlink(target.c_str(), (folder.path() + "/counters").c_str()) == 0);
  CHECK_FALSE(xgpu::detail::add_shared_counters(folder.path(), xgpu::CacheStats{}));
  CHECK_THAT(xgpu::detail::read_shared_counters(folder.path()).problem,
             Catch::Contains("counters"));
  std::ifstream planted(target);
  std::string first, second;
  std::getline(planted, first);
  std::getline(planted, second);
  CHECK(second == "hits 5");
}

TEST_CASE("xgpu's log lines go to a capture while it lives", "[cache]") {
  xgpu::set_log_level("warn");
  std::string outer_text;
  {
    xgpu::ScopedLogCapture outer;
    xgpu::detail::logger("cache").warn("to the outer one {}", 1);
    {
      xgpu::ScopedLogCapture inner;
      std::thread([] { xgpu::detail::logger("backend.test").error("from a thread"); }).join();
      CHECK_THAT(inner.text(), Catch::EndsWith("[xgpu.backend.test] [error] from a thread\n"));
    }
    xgpu::detail::logger("cache").debug("below the level: not logged at all");
    outer_text = outer.text();
  }
  CHECK_THAT(outer_text, Catch::EndsWith("[xgpu.cache] [warning] to the outer one 1\n"));
  CHECK(outer_text.find("from a thread") == std::string::npos);
  CHECK(outer_text.find("\x1b[") == std::string::npos);  // no colour codes
  // Every capture ended: stderr again, and no handler left behind.
  CHECK_FALSE(static_cast<bool>(xgpu::set_log_handler({})));
}
