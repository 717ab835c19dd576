// Proof that the cache suite's checks can fail: what a cache that never hits, one that writes
// in read-only mode, or one that loads a corrupt entry would show in xgpu::cache_stats(), fed
// to the judging functions; and the real check run against a cache whose entry disappears
// between the two builds, which must then miss where a hit is promised.
#include <cache_evidence.hpp>
#include <catch2/catch.hpp>
#include <check.hpp>

using namespace xgpu::conform;

namespace {

xgpu::CacheStats counted(std::uint64_t hits, std::uint64_t misses, std::uint64_t stores = 0,
                         std::uint64_t read_only_skips = 0) {
  xgpu::CacheStats stats;
  stats.hits = hits;
  stats.misses = misses;
  stats.stores = stores;
  stats.read_only_skips = read_only_skips;
  return stats;
}

bool says(const Result& result, const std::string& text) {
  return result.detail.find(text) != std::string::npos;
}

}  // namespace

TEST_CASE("the cache check fails on counters a broken cache would show", "[conform][broken]") {
  // What a working cache shows, as the baseline each case breaks one part of.
  const CacheUse read_write{counted(0, 1), counted(0, 0, 1), counted(1, 0)};
  const CacheUse read_only{counted(0, 1, 0, 1), counted(0, 0), counted(0, 1, 0, 1)};
  REQUIRE(judge_cache_use("read-write", "", read_write).outcome == Outcome::pass);
  REQUIRE(judge_cache_use("read-only", "XGPU_CACHE=ro", read_only).outcome == Outcome::pass);

  SECTION("read-write, never hits: the second build misses again") {
    CacheUse never_hits = read_write;
    never_hits.second_build = counted(0, 1);
    const Result result = judge_cache_use("read-write", "", never_hits);
    CHECK(result.outcome == Outcome::fail);
    CHECK(says(result, "expected 1 hit and no miss, cache_stats() saw 1 miss"));
  }
  // One part of a working run broken each: the judgement must be a failure.
  struct Broken {
    const char* what;
    const char* mode;
    CacheUse use;
  };
  auto with = [](CacheUse use, xgpu::CacheStats CacheUse::*part, xgpu::CacheStats stats) {
    use.*part = stats;
    return use;
  };
  const Broken broken[] = {
      {"read-write, never saves", "read-write", with(read_write, &CacheUse::saved, counted(0, 0))},
      {"read-write, a hit for a source never seen", "read-write",
       with(read_write, &CacheUse::first_build, counted(1, 0))},
      {"read-only, but it writes", "read-only",
       with(read_only, &CacheUse::saved, counted(0, 0, 1))},
      {"read-only, but the second build hits (it was saved after all)", "read-only",
       with(read_only, &CacheUse::second_build, counted(1, 0))},
      {"read-only, but the build is not counted as a read-only skip", "read-only",
       with(read_only, &CacheUse::first_build, counted(0, 1))},
  };
  for (const Broken& b : broken) {
    INFO(b.what);
    CHECK(judge_cache_use(b.mode, "", b.use).outcome == Outcome::fail);
  }
  SECTION("off, but counters move") {
    CHECK(judge_cache_use("off", "", read_write).outcome == Outcome::fail);
    CHECK(judge_cache_use("off", "XGPU_CACHE=0", CacheUse{}).outcome == Outcome::skip);
  }
}

TEST_CASE("the healing check fails when a corrupt entry is loaded or kept", "[conform][broken]") {
  xgpu::CacheStats healed = counted(0, 1);
  healed.bad_entries = healed.healed = 1;
  REQUIRE(judge_healing(healed, counted(0, 1, 1)).outcome == Outcome::pass);
  // Loaded as if it were good: a hit and no bad entry.
  CHECK(judge_healing(counted(1, 0), counted(0, 0, 1)).outcome == Outcome::fail);
  // Noticed but left on disk.
  xgpu::CacheStats kept = healed;
  kept.healed = 0;
  CHECK(judge_healing(kept, counted(0, 1, 1)).outcome == Outcome::fail);
  // Rebuilt but never saved again.
  CHECK(judge_healing(healed, counted(0, 1, 0)).outcome == Outcome::fail);
}

TEST_CASE("the hit check fails on a real cache that loses its entry", "[conform][broken]") {
  if (xgpu::cache::status().mode != "read-write") {
    FAIL("needs a writable kernel cache (conform.broken sets XGPU_CACHE_DIR); it is "
         << xgpu::cache::status().mode << ": " << xgpu::cache::status().note);
  }
  Env env(xgpu::devices().at(0), true);
  REQUIRE(check_hit_is_bit_identical(env, [] {}).outcome == Outcome::pass);
  // Broken: every entry is deleted after the first program is saved, so the second build
  // of the same source misses where a read-write cache must hit.
  const Result result = check_hit_is_bit_identical(env, [] { xgpu::cache::clear(); });
  CHECK(result.outcome == Outcome::fail);
  CHECK(says(result, "the second build, in a new context: expected 1 hit and no miss"));
}
