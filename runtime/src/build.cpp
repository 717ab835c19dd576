// Context::build: the in-process layer, then the disk cache, then the driver's compiler.
// A build failure becomes an error carrying the log, the options and the file:line of the
// first mistake.
#include <chrono>
#include <sstream>

#include "cache/cache_stats.hpp"
#include "cache/hash.hpp"
#include "cache/key.hpp"
#include "internals.hpp"
#include "log.hpp"
#include "objects.hpp"
#include "preprocess.hpp"
#include "trace/hooks.hpp"

namespace xgpu {
namespace {

using detail::check;
using Clock = std::chrono::steady_clock;

// Kernel argument type checking needs the driver's argument info, which OpenCL only keeps
// when asked at build time.
constexpr const char* kAlwaysOptions = "-cl-kernel-arg-info";

// When a program built from source is saved if no launch comes first.
constexpr std::chrono::milliseconds kSaveUnlaunchedAfter{2000};

double milliseconds_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// The first line of a build log that reports an error, e.g. "bad.cl:3:5: error: ...".
std::string first_error_line(const std::string& log) {
  std::istringstream in(log);
  for (std::string line; std::getline(in, line);) {
    if (line.find("error") != std::string::npos) return line;
  }
  return {};
}

std::vector<std::string> split_names(const std::string& text) {
  std::vector<std::string> names;
  std::istringstream in(text);
  for (std::string name; std::getline(in, name, ';');) {
    if (!name.empty()) names.push_back(name);
  }
  return names;
}

std::string read_build_log(const detail::Module& module, xgpu_program program, xgpu_device device) {
  std::string log;
  auto query = [&](char* buffer, std::size_t capacity, std::size_t* size) {
    return module.table->program_build_log(program, device, buffer, capacity, size);
  };
  if (detail::read_string(query, log) != XGPU_STATUS_SUCCESS) return "(no build log available)";
  while (!log.empty() && (log.back() == '\n' || log.back() == '\0')) log.pop_back();
  return log;
}

std::string read_kernel_names(const detail::ProgramState& state) {
  std::string names;
  auto query = [&](char* buffer, std::size_t capacity, std::size_t* size) {
    return state.module().table->program_kernel_names(static_cast<xgpu_program>(state.handle.get()),
                                                      buffer, capacity, size);
  };
  check(state.module(), detail::read_string(query, names), "listing the program's kernels",
        state.record);
  return names;
}

std::shared_ptr<detail::ProgramState> new_state(const detail::ContextState& context,
                                                const std::string& name, std::string_view options) {
  auto state = std::make_shared<detail::ProgramState>();
  state->record = context.record;
  state->context = context.handle;
  state->source_name = name;
  state->options = std::string(options);
  return state;
}

[[noreturn]] void throw_build_error(const detail::ProgramState& state, xgpu_status status) {
  Error::Details details =
      detail::backend_error_details(state.module(), status, "Context::build", state.record);
  // The driver's own status here means it refused the source; a status the ABI reserves
  // (the module cannot build at all, say) keeps the kind errc_of_status() gives it.
  if (details.code == Errc::backend) details.code = Errc::build_failed;
  details.build_log = state.build_log;
  details.build_options = state.options;
  std::string first = first_error_line(state.build_log);
  details.message = "building " + state.source_name + " failed on " + details.device +
                    (first.empty() ? "" : ": " + first);
  throw Error(std::move(details));
}

std::shared_ptr<detail::ProgramState> build_from_source(const detail::ContextState& context,
                                                        const std::string& name,
                                                        std::string_view options,
                                                        const std::string& all_options,
                                                        const detail::ExpandedSource& expanded) {
  const detail::Module& module = context.module();
  auto state = new_state(context, name, options);
  xgpu_program raw = nullptr;
  check(module,
        module.table->program_create(static_cast<xgpu_context>(context.handle.get()),
                                     expanded.text.data(), expanded.text.size(), &raw),
        "creating a program", context.record);
  state->handle = detail::Handle<detail::ObjectKind::program>::adopt(&module, raw);
  auto started = Clock::now();
  xgpu_status status = module.table->program_build(raw, context.record->raw, all_options.c_str());
  state->build_log = detail::remap_log(read_build_log(module, raw, context.record->raw), expanded);
  if (status != XGPU_STATUS_SUCCESS) {
    detail::logger("build").info("building {} failed after {:.1f} ms", name,
                                 milliseconds_since(started));
    throw_build_error(*state, status);
  }
  detail::logger("build").debug("built {} from source in {:.1f} ms for {} (options: '{}')", name,
                                milliseconds_since(started), context.record->info.name,
                                all_options);
  state->kernel_names = split_names(read_kernel_names(*state));
  return state;
}

// A program from a cache entry, or nullptr when the driver refuses the binary (the entry
// is then deleted and the caller builds from source).
std::shared_ptr<detail::ProgramState> build_from_entry(
    const detail::ContextState& context, const std::string& name, std::string_view options,
    const std::string& all_options, const std::string& hash, const detail::CacheEntry& entry) {
  const detail::Module& module = context.module();
  auto& store = detail::KernelCache::instance().store();
  if (!module.has(&xgpu_backend_v1::program_create_binary)) return nullptr;
  auto started = Clock::now();
  xgpu_program raw = nullptr;
  xgpu_status status = module.table->program_create_binary(
      static_cast<xgpu_context>(context.handle.get()), context.record->raw, entry.binary.data(),
      entry.binary.size(), &raw);
  if (status != XGPU_STATUS_SUCCESS) {
    store.remove(hash, entry, "the driver refused its binary (" + module.status_name(status) + ")");
    return nullptr;
  }
  auto state = new_state(context, name, options);
  state->handle = detail::Handle<detail::ObjectKind::program>::adopt(&module, raw);
  status = module.table->program_build(raw, context.record->raw, all_options.c_str());
  if (status != XGPU_STATUS_SUCCESS) {
    store.remove(hash, entry,
                 "the driver could not build its binary (" + module.status_name(status) + ")");
    return nullptr;
  }
  state->build_log = entry.build_log;
  state->kernel_names = split_names(read_kernel_names(*state));
  state->saved_signatures =
      detail::decode_signatures(detail::metadata_value(entry.metadata, "signatures"));
  detail::count(detail::cache_counters().hits);
  detail::logger("cache").debug("hit: {} loaded from the cache in {:.1f} ms ({})", name,
                                milliseconds_since(started), hash.substr(0, 16));
  return state;
}

std::shared_ptr<detail::CacheTicket> make_ticket(const detail::ProgramState& state,
                                                 const std::string& hash, std::string key,
                                                 const std::string& all_options) {
  auto ticket = std::make_shared<detail::CacheTicket>();
  ticket->hash = hash;
  ticket->key = std::move(key);
  ticket->device = state.record;
  ticket->program = state.handle;
  ticket->source_name = state.source_name;
  ticket->options = all_options;
  ticket->build_log = state.build_log;
  for (const auto& name : state.kernel_names) {
    ticket->kernel_names += (ticket->kernel_names.empty() ? "" : ";") + name;
  }
  return ticket;
}

}  // namespace

Program Context::build(const Source& source, std::string_view options,
                       const std::vector<Source>& headers) const {
  auto& context = const_cast<detail::ContextState&>(detail::state_of(state_, "Context"));
  const double traced_at = detail::trace::active() ? detail::trace::now_us() : -1;
  const std::string name = source.name.empty() ? "program.cl" : source.name;
  const detail::ExpandedSource expanded = detail::expand_includes(source, headers);
  const std::string all_options =
      detail::normalize_options(std::string(options) + " " + kAlwaysOptions);
  std::string key = detail::make_cache_key(*context.record, all_options, expanded.text);
  const std::string hash = detail::to_hex(detail::sha256({key}));
  {
    std::lock_guard<std::mutex> lock(context.programs_mutex);
    auto built = context.programs.find(hash);
    if (built != context.programs.end()) {
      if (traced_at >= 0) detail::trace::build(context.record, name, "memory", traced_at);
      return detail::Internals::program(built->second);
    }
  }

  auto& cache = detail::KernelCache::instance();
  std::shared_ptr<detail::ProgramState> state;
  std::optional<detail::CacheEntry> entry = cache.store().load(hash, key);
  if (entry) state = build_from_entry(context, name, options, all_options, hash, *entry);
  const bool from_cache = state != nullptr;
  if (!from_cache) {
    detail::logger("cache").debug("miss: {} is built from source ({})", name, hash.substr(0, 16));
    if (cache.store().readable()) detail::count(detail::cache_counters().misses);
    if (cache.store().readable() && !cache.store().writable()) {
      detail::count(detail::cache_counters().read_only_skips);
    }
    state = build_from_source(context, name, options, all_options, expanded);
  }
  if (cache.store().writable()) {
    state->ticket = make_ticket(*state, hash, std::move(key), all_options);
    if (from_cache) {
      state->ticket->signatures = detail::metadata_value(entry->metadata, "signatures");
      state->ticket->set_variants(detail::metadata_value(entry->metadata, "variants"));
    } else {
      // Saved after its first launches (which reschedule it) or at exit; the long wait
      // keeps the binary fetch, which compiles on PoCL, away from those launches.
      cache.schedule(state->ticket, Event(), kSaveUnlaunchedAfter);
    }
  }
  if (traced_at >= 0)
    detail::trace::build(context.record, name, from_cache ? "disk" : "source", traced_at);
  std::lock_guard<std::mutex> lock(context.programs_mutex);
  auto inserted = context.programs.emplace(hash, std::move(state));
  return detail::Internals::program(
      inserted.first->second);  // another thread's equal program, if it won
}

}  // namespace xgpu
