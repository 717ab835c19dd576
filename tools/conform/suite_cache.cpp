// The cache suite: a program answered by the kernel cache computes bit-identical results to
// the one compiled, and an entry corrupted on disk is noticed, rebuilt and stored again.
// Each check uses a source of its own (a random tag in its name), so it touches no entry
// but the one it made.
#include <cstring>
#include <fstream>
#include <optional>
#include <random>
#include <vector>
#include <xgpu/cache.hpp>

#include "check.hpp"

namespace xgpu::conform {
namespace {

std::vector<float> run_once(const Device& device, const Source& source,
                            const std::vector<float>& input) {
  Context context(device);
  Queue queue = context.queue();
  Program program = context.build(source);
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

Result compare(const std::vector<float>& first, const std::vector<float>& second,
               const std::string& what) {
  for (std::size_t i = 0; i < first.size(); ++i) {
    if (std::memcmp(&first[i], &second[i], sizeof(float)) != 0)
      return fail_expected("element " + std::to_string(i) + " " + what, first[i], second[i]);
  }
  return pass();
}

Result hit_is_bit_identical(Env& env) {
  const cache::Status status = cache::status();
  if (status.mode == "off") return skip("the kernel cache is off (" + status.note + ")");
  const Source source = fresh_source();
  const std::vector<float> input = inputs(env);
  const std::vector<float> compiled = run_once(env.device(), source, input);
  if (status.mode == "read-write" && !entry_for(env, source))
    return fail("expected a cache entry for " + source.name + " after flush, got none");
  return compare(compiled, run_once(env.device(), source, input), "from the cached program");
}

Result corrupt_entry_heals(Env& env) {
  const cache::Status status = cache::status();
  if (status.mode != "read-write")
    return skip("needs a writable kernel cache (it is " + status.mode + ")");
  const Source source = fresh_source();
  const std::vector<float> input = inputs(env);
  const std::vector<float> compiled = run_once(env.device(), source, input);
  const std::optional<cache::Entry> entry = entry_for(env, source);
  if (!entry) return fail("expected a cache entry for " + source.name + ", got none");
  {  // Flip bytes in the middle of the entry, as a bad disk or a killed writer would.
    std::fstream file(entry->path, std::ios::in | std::ios::out | std::ios::binary);
    file.seekp(static_cast<std::streamoff>(entry->size / 2));
    file.write("\xde\xad\xbe\xef", 4);
    if (!file) return fail("could not corrupt " + entry->path + " for the check");
  }
  const Result rebuilt = compare(compiled, run_once(env.device(), source, input),
                                 "from the program rebuilt over a corrupt entry");
  if (rebuilt.outcome != Outcome::pass) return rebuilt;
  const std::optional<cache::Entry> healed = entry_for(env, source);
  if (!healed || !healed->valid)
    return fail_expected("the entry after rebuilding", "valid",
                         healed ? "invalid: " + healed->problem : "missing");
  return pass();
}

}  // namespace

void register_cache(Registry& registry) {
  registry.add("cache", "hit_is_bit_identical", "", hit_is_bit_identical);
  registry.add("cache", "corrupt_entry_heals", "", corrupt_entry_heals);
}

}  // namespace xgpu::conform
