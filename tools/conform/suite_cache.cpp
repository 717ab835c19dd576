// The cache suite: a program answered by the kernel cache computes bit-identical results to
// the one compiled, xgpu::cache_stats() shows the cache answered (a hit in read-write mode, a
// miss in read-only mode), and an entry corrupted on disk is noticed, rebuilt and stored
// again. Each check uses a source of its own (a random tag in its name), so it touches no
// entry but the one it made. The judging from the counters is in cache_evidence.cpp.
#include <cstring>
#include <fstream>
#include <optional>
#include <random>
#include <vector>
#include <xgpu/cache.hpp>

#include "cache_evidence.hpp"
#include "check.hpp"

namespace xgpu::conform {
namespace {

std::vector<float> run(const Context& context, const Program& program,
                       const std::vector<float>& input) {
  Queue queue = context.queue();
  Buffer<float> in = context.alloc<float>(input.size()), out = context.alloc<float>(input.size());
  queue.write(in, input);
  queue.launch(program.kernel("wave"), Range{input.size()}, in, out);
  return queue.read(out);
}

// A source no cache has seen: the first build is a miss.
Source fresh_source() {
  std::mt19937_64 random(std::random_device{}());
  return Source{"conform_cache_" + std::to_string(random()) + ".cl",
                "kernel void wave(global const float* in, global float* out) {\n"
                "  size_t i = get_global_id(0);\n"
                "  out[i] = sin(in[i]) * exp(-in[i] * 0.01f) + sqrt(fabs(in[i]));\n"
                "}\n"};
}

std::vector<float> inputs(const Env& env) {
  std::vector<float> input(env.size(1024, 64));
  for (std::size_t i = 0; i < input.size(); ++i) input[i] = static_cast<float>(i) * 0.37f - 9.0f;
  return input;
}

// The entry made for `source` on this device, after flushing pending writes.
std::optional<cache::Entry> entry_for(const Env& env, const Source& source) {
  cache::flush();
  for (const cache::Entry& entry : cache::list()) {
    if (entry.source.find(source.name) != std::string::npos && entry.device == env.info().name)
      return entry;
  }
  return std::nullopt;
}

// Why the cache keeps nothing for this device, or empty. The profile module gives no program
// binaries (backends/profile/entry.cpp: the cache key cannot see the profile's extension
// macros), so a profile device's builds are never stored.
std::string not_cached(const Env& env) {
  if (env.info().backend == "profile")
    return "a profile device's builds are not kept in the kernel cache (its module gives no "
           "program binaries; docs/profiles.md)";
  return {};
}

Result compare(const std::vector<float>& first, const std::vector<float>& second,
               const std::string& what) {
  for (std::size_t i = 0; i < first.size(); ++i) {
    if (std::memcmp(&first[i], &second[i], sizeof(float)) != 0)
      return fail_expected("element " + std::to_string(i) + " " + what, first[i], second[i]);
  }
  return pass();
}

Result hit_is_bit_identical(Env& env) {
  const std::string uncached = not_cached(env);
  if (!uncached.empty()) return skip(uncached);
  return check_hit_is_bit_identical(env, [] {});
}

Result corrupt_entry_heals(Env& env) {
  const std::string uncached = not_cached(env);
  if (!uncached.empty()) return skip(uncached);
  const cache::Status status = cache::status();
  if (status.mode != "read-write")
    return skip("needs a writable kernel cache (it is " + status.mode + ")");
  const Source source = fresh_source();
  const std::vector<float> input = inputs(env);
  std::vector<float> compiled;
  {
    Context context(env.device());
    compiled = run(context, context.build(source), input);
  }
  const std::optional<cache::Entry> entry = entry_for(env, source);
  if (!entry) return fail("expected a cache entry for " + source.name + ", got none");
  {  // Flip bytes in the middle of the entry, as a bad disk or a killed writer would.
    std::fstream file(entry->path, std::ios::in | std::ios::out | std::ios::binary);
    file.seekp(static_cast<std::streamoff>(entry->size / 2));
    file.write("\xde\xad\xbe\xef", 4);
    if (!file) return fail("could not corrupt " + entry->path + " for the check");
  }
  const CacheStats before = cache_stats();
  Context context(env.device());
  const Program rebuilt_program = context.build(source);
  const CacheStats rebuild = cache_stats() - before;
  const Result rebuilt = compare(compiled, run(context, rebuilt_program, input),
                                 "from the program rebuilt over a corrupt entry");
  if (rebuilt.outcome != Outcome::pass) return rebuilt;
  const std::optional<cache::Entry> healed = entry_for(env, source);
  const Result judged = judge_healing(rebuild, cache_stats() - before);
  if (judged.outcome != Outcome::pass) return judged;
  if (!healed || !healed->valid)
    return fail_expected("the entry after rebuilding", "valid",
                         healed ? "invalid: " + healed->problem : "missing");
  return pass();
}

}  // namespace

Result check_hit_is_bit_identical(Env& env, const std::function<void()>& between_builds) {
  const cache::Status status = cache::status();
  const Source source = fresh_source();
  const std::vector<float> input = inputs(env);
  cache::flush();  // an earlier check's pending save must not be counted as this one's
  CacheUse seen;
  CacheStats before = cache_stats();
  Context first_context(env.device());
  const Program first = first_context.build(source);
  const CacheStats built = cache_stats();
  seen.first_build = built - before;
  const std::vector<float> compiled = run(first_context, first, input);
  // From the build on: the background writer may save it before flush() is called.
  cache::flush();
  seen.saved = cache_stats() - built;
  between_builds();
  before = cache_stats();
  Context second_context(env.device());
  const Program second = second_context.build(source);
  seen.second_build = cache_stats() - before;

  const Result judged = judge_cache_use(status.mode, status.note, seen);
  if (judged.outcome != Outcome::pass) return judged;
  if (status.mode == "read-write" && !entry_for(env, source))
    return fail("expected a cache entry for " + source.name + " after flush, got none");
  const Result same = compare(
      compiled, run(second_context, second, input),
      status.mode == "read-write" ? "from the cached program" : "from the program built again");
  return same.outcome == Outcome::pass ? judged : same;
}

void register_cache(Registry& registry) {
  registry.add("cache", "hit_is_bit_identical", "", hit_is_bit_identical);
  registry.add("cache", "corrupt_entry_heals", "", corrupt_entry_heals);
}

}  // namespace xgpu::conform
