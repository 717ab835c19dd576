// The public xgpu::cache functions over the process's KernelCache.
#include <algorithm>

#include "cache/kernel_cache.hpp"
#include "cache/shared_counters.hpp"
#include "registry.hpp"
#include "util/byte_size.hpp"
#include "xgpu/cache.hpp"
#include "xgpu/device.hpp"
#include "xgpu/error.hpp"

namespace xgpu::cache {
namespace {

detail::CacheStore& store() { return detail::KernelCache::instance().store(); }

// Upkeep that deletes needs a writable cache; saying "0 removed" would hide why.
detail::CacheStore& writable_store(const char* call) {
  detail::CacheStore& cache = store();
  if (!cache.writable()) {
    const auto& settings = cache.settings();
    throw Error(Errc::cache_unavailable,
                "the kernel cache" + (settings.folder.empty() ? "" : " at " + settings.folder) +
                    " cannot be changed: it is " +
                    (settings.note.empty() ? std::string("read-only") : settings.note),
                call);
  }
  return cache;
}

const char* mode_name(detail::CacheMode mode) {
  switch (mode) {
    case detail::CacheMode::read_write:
      return "read-write";
    case detail::CacheMode::read_only:
      return "read-only";
    default:
      return "off";
  }
}

Entry describe(const detail::StoredEntry& stored) {
  Entry entry;
  entry.hash = stored.hash;
  entry.path = stored.path;
  entry.size = stored.size;
  entry.last_use = static_cast<std::int64_t>(stored.last_use);
  detail::CacheEntry parsed;
  entry.valid = store().read(stored, parsed, &entry.problem);
  if (entry.valid) {
    entry.device = detail::metadata_value(parsed.metadata, "device");
    entry.driver = detail::metadata_value(parsed.metadata, "driver");
    entry.platform = detail::metadata_value(parsed.metadata, "platform");
    entry.source = detail::metadata_value(parsed.metadata, "source");
    entry.options = detail::metadata_value(parsed.metadata, "options");
    entry.kernels = detail::metadata_value(parsed.metadata, "kernels");
  }
  return entry;
}

}  // namespace

Status status() {
  Status result;
  const auto& settings = store().settings();
  result.folder = settings.folder;
  result.mode = mode_name(settings.mode);
  result.note = settings.note;
  result.max_size = settings.max_size;
  for (const auto& stored : store().entries()) {
    result.size += stored.size;
    ++result.entries;
  }
  if (store().readable()) {
    detail::SharedCounters counters = detail::read_shared_counters(settings.folder);
    result.recorded = counters.totals;
    result.recorded_since = counters.since;
    result.recorded_problem = counters.problem;
  }
  return result;
}

std::vector<Entry> list() {
  auto stored = store().entries();
  std::sort(stored.begin(), stored.end(), [](const auto& a, const auto& b) {
    return a.last_use != b.last_use ? a.last_use < b.last_use : a.hash < b.hash;
  });
  std::vector<Entry> entries;
  for (const auto& one : stored) entries.push_back(describe(one));
  return entries;
}

VerifyReport verify() {
  writable_store("cache::verify");
  VerifyReport report;
  for (const auto& stored : store().entries()) {
    ++report.checked;
    Entry entry = describe(stored);
    if (!entry.valid && store().erase(stored)) report.removed.push_back(entry);
  }
  return report;
}

PruneReport prune(std::uint64_t max_size) {
  writable_store("cache::prune");
  PruneReport report;
  for (const auto& stored : store().prune(max_size)) {
    Entry entry;
    entry.hash = stored.hash;
    entry.path = stored.path;
    entry.size = stored.size;
    entry.last_use = static_cast<std::int64_t>(stored.last_use);
    report.removed.push_back(entry);
  }
  for (const auto& stored : store().entries()) report.size_after += stored.size;
  return report;
}

std::size_t clear(std::string_view device_selector) {
  writable_store("cache::clear");
  std::vector<Device> chosen;
  if (!device_selector.empty()) chosen = select_all(device_selector);
  std::size_t removed = 0;
  for (const auto& stored : store().entries()) {
    if (!device_selector.empty()) {
      Entry entry = describe(stored);
      bool match = false;
      for (const Device& device : chosen) {
        match |= entry.device == device.info().name && entry.driver == device.info().driver_version;
      }
      if (!match) continue;
    }
    removed += store().erase(stored) ? 1 : 0;
  }
  if (device_selector.empty()) detail::reset_shared_counters(store().settings().folder);
  return removed;
}

std::uint64_t parse_size(std::string_view text) {
  if (auto bytes = util::parse_byte_size(text)) return *bytes;
  throw Error(Errc::invalid_argument,
              "'" + std::string(text) +
                  "' is not a size: write a number with K, M, G or T, "
                  "e.g. 512M or 2G",
              "cache::parse_size");
}

void flush() {
  detail::KernelCache::instance().flush();
  // Here and at exit only: not at every thread's end (KernelCache::flush), which would lock
  // and write the counters file once per thread that built something.
  detail::record_process_counters();
}

}  // namespace xgpu::cache
