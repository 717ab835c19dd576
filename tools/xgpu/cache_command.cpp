// `xgpu cache [list|verify|prune --max-size SIZE|clear [--device SEL]] [--json]`.
#include "cache_command.hpp"

#include <CLI/CLI.hpp>
#include <ctime>
#include <iomanip>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <xgpu/cache.hpp>

#include "color.hpp"
#include "exit_codes.hpp"
#include "table.hpp"
#include "units.hpp"

namespace xgpu::cli {
namespace {

using nlohmann::json;

struct Options {
  bool json = false;
  std::string max_size;
  std::string device;
  ColorMode color = ColorMode::automatic;
  CLI::App* list = nullptr;
  CLI::App* verify = nullptr;
  CLI::App* prune = nullptr;
  CLI::App* clear = nullptr;
};

std::string when(std::int64_t seconds) {
  std::time_t time = static_cast<std::time_t>(seconds);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%d %H:%M", std::localtime(&time));
  return text;
}

json entry_json(const cache::Entry& entry) {
  json out = {{"hash", entry.hash},
              {"path", entry.path},
              {"size_bytes", entry.size},
              {"last_use", entry.last_use},
              {"valid", entry.valid}};
  if (entry.valid) {
    out["device"] = entry.device;
    out["driver"] = entry.driver;
    out["platform"] = entry.platform;
    out["source"] = entry.source;
    out["options"] = entry.options;
    out["kernels"] = entry.kernels;
  } else {
    out["problem"] = entry.problem;
  }
  return out;
}

json recorded_json(const cache::Status& status) {
  const CacheStats& r = status.recorded;
  const std::uint64_t lookups = r.hits + r.misses;
  return {{"since", status.recorded_since},
          {"problem", status.recorded_problem},
          {"hits", r.hits},
          {"misses", r.misses},
          {"hit_rate", lookups ? json(static_cast<double>(r.hits) / lookups) : json(nullptr)},
          {"stores", r.stores},
          {"store_failures", r.store_failures},
          {"bad_entries", r.bad_entries},
          {"healed", r.healed},
          {"read_only_skips", r.read_only_skips},
          {"evictions", r.evictions}};
}

// The counters every read-write process added to the folder (docs/kernel-cache.md).
void print_recorded(const cache::Status& status) {
  const CacheStats& r = status.recorded;
  if (!status.recorded_problem.empty()) {
    std::cout << "recorded: unreadable: " << status.recorded_problem
              << "; the next process to record starts again from zero\n";
    return;
  }
  if (status.recorded_since == 0) {
    std::cout << "recorded: nothing yet (each read-write process adds its hits and misses when "
                 "it exits)\n";
    return;
  }
  const std::uint64_t lookups = r.hits + r.misses;
  std::ostringstream rate;
  if (lookups) rate << std::fixed << std::setprecision(1) << 100.0 * r.hits / lookups << " %";
  std::cout << "recorded: since " << when(status.recorded_since)
            << " (xgpu cache clear starts again)\n"
            << "  hits:   " << r.hits << ", misses " << r.misses << ": hit rate "
            << (lookups ? rate.str() : "- (no lookups)") << "\n"
            << "  stores: " << r.stores << ", failed " << r.store_failures << ", evictions "
            << r.evictions << ", read-only skips " << r.read_only_skips << "\n"
            << "  bad entries: " << r.bad_entries << ", healed " << r.healed << "\n";
}

int show_status(const Options& options) {
  cache::Status status = cache::status();
  if (options.json) {
    std::cout << json{{"schema_version", 2},
                      {"folder", status.folder},
                      {"mode", status.mode},
                      {"note", status.note},
                      {"max_size_bytes", status.max_size},
                      {"size_bytes", status.size},
                      {"entries", status.entries},
                      {"recorded", recorded_json(status)}}
                     .dump(2)
              << '\n';
    return kExitOk;
  }
  std::cout << "folder:   " << (status.folder.empty() ? "(none)" : status.folder) << '\n'
            << "mode:     " << status.mode << (status.note.empty() ? "" : " (" + status.note + ")")
            << '\n'
            << "entries:  " << status.entries << '\n'
            << "size:     " << format_bytes(status.size) << " of at most "
            << format_bytes(status.max_size) << " (XGPU_CACHE_MAX_SIZE)\n";
  print_recorded(status);
  return kExitOk;
}

int show_list(const Options& options) {
  std::vector<cache::Entry> entries = cache::list();
  if (options.json) {
    json list = json::array();
    for (const auto& entry : entries) list.push_back(entry_json(entry));
    std::cout << json{{"schema_version", 1}, {"entries", list}}.dump(2) << '\n';
    return kExitOk;
  }
  Table table;
  table.add_column("hash");
  table.add_column("source");
  table.add_column("device");
  table.add_column("driver");
  table.add_column("size", Table::Align::right);
  table.add_column("last use");
  table.add_column("kernels");
  for (const auto& entry : entries) {
    if (entry.valid) {
      table.add_row({entry.hash.substr(0, 12), entry.source, entry.device, entry.driver,
                     format_bytes(entry.size), when(entry.last_use), entry.kernels});
    } else {
      table.add_row({entry.hash.substr(0, 12), "(bad: " + entry.problem + ")", "", "",
                     format_bytes(entry.size), when(entry.last_use), ""});
    }
  }
  if (table.empty()) {
    std::cout << "the cache is empty\n";
  } else {
    table.print(std::cout, Style(color_enabled(options.color, stdout)));
  }
  return kExitOk;
}

int run_verify(const Options& options) {
  cache::VerifyReport report = cache::verify();
  if (options.json) {
    json removed = json::array();
    for (const auto& entry : report.removed) removed.push_back(entry_json(entry));
    std::cout
        << json{{"schema_version", 1}, {"checked", report.checked}, {"removed", removed}}.dump(2)
        << '\n';
  } else {
    for (const auto& entry : report.removed) {
      std::cout << "removed " << entry.path << ": " << entry.problem << '\n';
    }
    std::cout << report.checked << " checked, " << report.removed.size() << " bad removed\n";
  }
  return kExitOk;
}

int run_prune(const Options& options) {
  cache::PruneReport report = cache::prune(cache::parse_size(options.max_size));
  std::uint64_t freed = 0;
  for (const auto& entry : report.removed) freed += entry.size;
  if (options.json) {
    json removed = json::array();
    for (const auto& entry : report.removed) removed.push_back(entry_json(entry));
    std::cout << json{{"schema_version", 1},
                      {"removed", removed},
                      {"freed_bytes", freed},
                      {"size_after_bytes", report.size_after}}
                     .dump(2)
              << '\n';
  } else {
    std::cout << report.removed.size() << " removed (" << format_bytes(freed) << "), "
              << format_bytes(report.size_after) << " left\n";
  }
  return kExitOk;
}

int run_clear(const Options& options) {
  std::size_t removed = cache::clear(options.device);
  if (options.json) {
    std::cout << json{{"schema_version", 1}, {"removed", removed}}.dump(2) << '\n';
  } else {
    std::cout << removed << " entries removed\n";
  }
  return kExitOk;
}

}  // namespace

Run setup_cache(CLI::App& sub) {
  auto options = std::make_shared<Options>();
  sub.add_flag("--json", options->json,
               "Machine-readable output (schema_version 2: with the recorded counters)");
  add_color_option(sub, options->color);
  sub.footer(
      "The cache folder is XGPU_CACHE_DIR, else $XDG_CACHE_HOME/xgpu, else ~/.cache/xgpu.\n"
      "XGPU_CACHE=0 turns it off, XGPU_CACHE=ro makes it read-only; XGPU_CACHE_MAX_SIZE caps it.\n"
      "Examples:\n"
      "  xgpu cache                       where it is, entries, size, hits and misses\n"
      "  xgpu cache list                  every entry: source, device, driver, size, last use\n"
      "  xgpu cache verify                check every entry, delete the bad ones\n"
      "  xgpu cache prune --max-size 256M delete least recently used entries\n"
      "  xgpu cache clear --device pocl   delete the entries of the devices a selector picks\n"
      "Hits, misses, stores and healed entries are recorded by every read-write process at exit;\n"
      "`xgpu cache clear` (without --device) starts them again from zero.");
  options->list = sub.add_subcommand("list", "List every entry");
  options->verify = sub.add_subcommand("verify", "Check every entry; delete bad ones");
  options->prune = sub.add_subcommand("prune", "Delete least recently used entries");
  options->prune->add_option("--max-size", options->max_size, "Size to prune down to, e.g. 256M")
      ->required();
  options->clear = sub.add_subcommand("clear", "Delete entries (all, or of some devices)");
  options->clear->add_option("--device,-d", options->device,
                             "Only entries made for the devices this selector picks");
  for (CLI::App* action : {options->list, options->verify, options->prune, options->clear}) {
    action->add_flag("--json", options->json, "Machine-readable output (schema_version 1)");
  }
  return [options]() {
    if (options->list->parsed()) return show_list(*options);
    if (options->verify->parsed()) return run_verify(*options);
    if (options->prune->parsed()) return run_prune(*options);
    if (options->clear->parsed()) return run_clear(*options);
    return show_status(*options);
  };
}

}  // namespace xgpu::cli
