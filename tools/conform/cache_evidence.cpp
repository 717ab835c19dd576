// Judging the kernel cache from its counters; see cache_evidence.hpp.
#include "cache_evidence.hpp"

#include <sstream>

namespace xgpu::conform {
namespace {

bool nothing_moved(const CacheStats& d) {
  return d.hits == 0 && d.misses == 0 && d.stores == 0 && d.store_failures == 0 &&
         d.bad_entries == 0 && d.healed == 0 && d.read_only_skips == 0 && d.evictions == 0;
}

Result unexpected(const std::string& step, const std::string& expected, const CacheStats& got) {
  return fail(step + ": expected " + expected + ", cache_stats() saw " + describe(got));
}

}  // namespace

std::string describe(const CacheStats& d) {
  std::ostringstream text;
  auto add = [&](std::uint64_t value, const char* one, const char* many) {
    if (value == 0) return;
    text << (text.tellp() > 0 ? ", " : "") << value << " " << (value == 1 ? one : many);
  };
  add(d.hits, "hit", "hits");
  add(d.misses, "miss", "misses");
  add(d.stores, "store", "stores");
  add(d.store_failures, "store failure", "store failures");
  add(d.bad_entries, "bad entry", "bad entries");
  add(d.healed, "healed", "healed");
  add(d.read_only_skips, "read-only skip", "read-only skips");
  add(d.evictions, "eviction", "evictions");
  return text.tellp() > 0 ? text.str() : "nothing";
}

Result judge_cache_use(const std::string& mode, const std::string& note, const CacheUse& seen) {
  const CacheStats& first = seen.first_build;
  const CacheStats& second = seen.second_build;
  if (mode == "off") {
    if (!nothing_moved(first) || !nothing_moved(seen.saved) || !nothing_moved(second))
      return fail("the kernel cache is off, yet cache_stats() saw " + describe(first) + "; " +
                  describe(seen.saved) + "; " + describe(second));
    return skip("the kernel cache is " + (note.empty() ? std::string("off") : note) +
                ": two builds, and cache_stats() saw no hit, miss or store, as it should");
  }
  if (first.misses != 1 || first.hits != 0)
    return unexpected("the first build of a new source", "1 miss and no hit", first);
  if (mode == "read-write") {
    if (seen.saved.stores == 0)
      return unexpected("saving it (cache::flush)", "at least 1 store", seen.saved);
    if (second.hits != 1 || second.misses != 0)
      return unexpected("the second build, in a new context", "1 hit and no miss", second);
    return {Outcome::pass,
            "read-write: a miss, " + std::to_string(seen.saved.stores) + " store(s), then a hit"};
  }
  if (mode == "read-only") {
    if (first.read_only_skips != 1)
      return unexpected("the first build of a new source", "1 read-only skip", first);
    if (seen.saved.stores != 0 || seen.saved.store_failures != 0)
      return unexpected("saving it (cache::flush)", "no store attempted (read-only)", seen.saved);
    if (second.misses != 1 || second.hits != 0)
      return unexpected("the second build, in a new context",
                        "1 miss and no hit (nothing was saved)", second);
    return {Outcome::pass,
            (note.empty() ? std::string("read-only") : note) + ": two misses and nothing stored"};
  }
  return fail("unknown kernel cache mode '" + mode + "'");
}

Result judge_healing(const CacheStats& rebuild, const CacheStats& saved) {
  if (rebuild.bad_entries != 1 || rebuild.healed != 1 || rebuild.misses != 1 || rebuild.hits != 0)
    return unexpected("the build over a corrupt entry", "1 bad entry, 1 healed, 1 miss and no hit",
                      rebuild);
  if (saved.stores == 0) return unexpected("saving the rebuilt program", "a store", saved);
  return pass();
}

}  // namespace xgpu::conform
