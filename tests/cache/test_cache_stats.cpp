// The kernel cache from the inside, part 4: xgpu::cache_stats(), the process-wide counters.
// The counters are shared by every test of this process, so each case compares a snapshot
// taken after flushing earlier tests' pending writes with one taken after its own steps.
#include <random>
#include <thread>

#include "cache/kernel_cache.hpp"
#include "cache/store.hpp"
#include "cache_test_support.hpp"

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
