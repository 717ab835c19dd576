// `xgpu conform [-d SEL] [--profile NAME] [--suite api,math,...] [--check NAMES] [--quick] [--full]
// [--junit FILE] [--json FILE] [--baseline FILE]`: the conformance suite on every selected
// device, a table of suites by devices, the failures and skips with their details, and
// `N passed, N failed, N skipped` as the last line. Exit 0 only when nothing failed.
// `xgpu conform --list [--suite S] [--check NAMES] [--json FILE]` lists the checks
// instead, opening no device.
#include "conform_command.hpp"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <check_list.hpp>
#include <chrono>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <output_capture.hpp>
#include <report.hpp>
#include <runner.hpp>
#include <sstream>

#include "color.hpp"
#include "conform_profile.hpp"
#include "exit_codes.hpp"
#include "table.hpp"

namespace xgpu::cli {
namespace {

struct Options {
  std::string device;
  std::string profile;  // --profile: a shipped profile's name or a profile file
  std::vector<std::string> suites;
  bool quick = false;
  bool full = false;
  std::vector<std::string> checks;
  std::string full_range;
  bool selftest_failure = false;
  bool list = false;
  bool verbose = false;
  std::string junit, json, baseline;
  ColorMode color = ColorMode::automatic;
};

// --full's progress on stderr: a bar with the ETA redrawn in place on a terminal, else a
// line every 5 %.
std::function<void(const std::string&, double)> full_progress_reporter(bool terminal) {
  struct State {
    std::string check;
    std::chrono::steady_clock::time_point start;
    int last_step = -1;
  };
  auto state = std::make_shared<State>();
  return [state, terminal](const std::string& check, double fraction) {
    const auto now = std::chrono::steady_clock::now();
    if (check != state->check) *state = {check, now, -1};
    const double elapsed = std::chrono::duration<double>(now - state->start).count();
    const double eta = fraction > 0 ? elapsed * (1 - fraction) / fraction : 0;
    const int percent = static_cast<int>(fraction * 100);
    std::ostringstream line;
    line << check << " " << percent << "% done, ETA " << static_cast<long>(eta) << " s";
    // Called inside a check, while the runner captures fd 2: the real stderr is written.
    std::FILE* out = conform::terminal_stderr();
    if (terminal) {
      const int filled = static_cast<int>(fraction * 30);
      std::fputs(("\r\x1b[K[" + std::string(filled, '#') + std::string(30 - filled, '.') + "] " +
                  line.str() + (fraction >= 1 ? "\n" : ""))
                     .c_str(),
                 out);
    } else if (percent / 5 != state->last_step) {
      state->last_step = percent / 5;
      std::fputs(("xgpu conform --full: " + line.str() + "\n").c_str(), out);
    }
  };
}

// --full-range FIRST:END (hidden, for tests): the float bit patterns --full goes over.
void parse_full_range(const std::string& text, conform::RunOptions& run) {
  if (text.empty()) return;
  const std::size_t colon = text.find(':');
  try {
    std::size_t used_first = 0, used_end = 0;
    run.full_first = std::stoull(text.substr(0, colon), &used_first, 0);
    run.full_end = std::stoull(text.substr(colon + 1), &used_end, 0);
    if (colon == std::string::npos || used_first != colon || used_end != text.size() - colon - 1 ||
        run.full_first >= run.full_end || run.full_end > (std::uint64_t{1} << 32))
      throw std::invalid_argument("range");
  } catch (const std::exception&) {
    throw Error(Errc::invalid_argument,
                "'" + text + "' is not FIRST:END with FIRST < END <= 0x100000000", "--full-range");
  }
}

std::vector<conform::DeviceReport> run_all(const conform::Registry& registry,
                                           const std::vector<Device>& selected,
                                           const Options& options) {
  const bool progress = isatty(STDERR_FILENO) != 0;
  std::vector<conform::DeviceReport> reports;
  for (std::size_t d = 0; d < selected.size(); ++d) {
    conform::RunOptions run;
    run.suites = options.suites;
    run.quick = options.quick;
    run.checks = options.checks;
    run.full = options.full;
    parse_full_range(options.full_range, run);
    if (options.full) run.full_progress = full_progress_reporter(progress);
    const std::string label = selected[d].describe();
    if (progress) {
      run.progress = [&](std::size_t i, std::size_t total, const conform::Check& check) {
        std::cerr << "\r\x1b[K[" << d + 1 << "/" << selected.size() << "] " << label.substr(0, 40)
                  << "  " << i + 1 << "/" << total << " " << check.suite << "/" << check.name
                  << std::flush;
      };
    } else {
      std::cerr << "xgpu conform: " << label << "\n";
    }
    reports.push_back(conform::run_device(registry, selected[d], run));
    if (progress) std::cerr << "\r\x1b[K";
  }
  return reports;
}

void print_table(const std::vector<conform::DeviceReport>& reports,
                 const std::vector<std::string>& suites, const Style& style) {
  Table table;
  table.add_column("SUITE");
  for (std::size_t d = 0; d < reports.size(); ++d)
    table.add_column("device " + std::to_string(d) + " pass/fail/skip", Table::Align::right);
  for (const std::string& suite : suites) {
    std::vector<Cell> row{suite};
    for (const conform::DeviceReport& report : reports) {
      std::size_t counts[3] = {0, 0, 0};
      for (const conform::CheckResult& r : report.results)
        if (r.suite == suite) ++counts[static_cast<int>(r.result.outcome)];
      const std::string text = std::to_string(counts[0]) + "/" + std::to_string(counts[1]) + "/" +
                               std::to_string(counts[2]);
      row.emplace_back(text, counts[1] ? "31" : "32");
    }
    table.add_row(row);
  }
  for (std::size_t d = 0; d < reports.size(); ++d)
    std::cout << "device " << d << ": " << reports[d].label << "\n";
  std::cout << "\n";
  table.print(std::cout, style);
}

// -v: what each check printed while it ran (kept in its record, off the terminal).
void print_outputs(const std::vector<conform::DeviceReport>& reports, const Style& style) {
  bool any = false;
  for (std::size_t d = 0; d < reports.size(); ++d) {
    for (const conform::CheckResult& r : reports[d].results) {
      if (r.output.empty()) continue;
      if (!any) std::cout << "\n" << style.bold("Output of checks (captured)") << "\n";
      any = true;
      std::cout << "  device " << d << " " << r.suite << "/" << r.name << ":\n";
      std::istringstream lines(r.output);
      for (std::string line; std::getline(lines, line);) std::cout << "    | " << line << "\n";
    }
  }
}

void print_details(const std::vector<conform::DeviceReport>& reports, conform::Outcome outcome,
                   const char* title, const Style& style) {
  bool any = false;
  for (std::size_t d = 0; d < reports.size(); ++d) {
    for (const conform::CheckResult& r : reports[d].results) {
      if (r.result.outcome != outcome) continue;
      if (!any) std::cout << "\n" << style.bold(title) << "\n";
      any = true;
      const std::string tag =
          outcome == conform::Outcome::fail ? style.red("FAIL") : style.yellow("SKIP");
      std::cout << "  " << tag << " device " << d << " " << r.suite << "/" << r.name << ": "
                << r.result.detail << "\n";
    }
  }
}

// --list: the registry alone, so it works on a machine with no device at all.
std::string joined(const std::vector<std::string>& items) {
  std::string text;
  for (const std::string& item : items) text += (text.empty() ? "" : ",") + item;
  return text;
}

// "--suite api --check float_sin": the selection as the user gave it, for an error about it.
std::string selection_text(const Options& options) {
  std::string text;
  if (!options.suites.empty()) text = "--suite " + joined(options.suites);
  if (!options.checks.empty())
    text += std::string(text.empty() ? "" : " ") + "--check " + joined(options.checks);
  return text;
}

// The usage errors of the selection, once every suite and check named exists: a selection of
// nothing (a check named outside the suites named), --full where it cannot go over every input,
// --full-range without --full. Prints the error and returns false; says on stderr which selected
// checks --full leaves sampled when the selection came from --suite alone.
bool selection_usable(const conform::Registry& registry, const Options& options) {
  const std::vector<conform::Check> selected =
      conform::selected_checks(registry, options.suites, options.checks);
  if (selected.empty()) {
    std::string where;  // each check named is in a suite not named
    for (const conform::Check& check : conform::selected_checks(registry, {}, options.checks))
      where += (where.empty() ? "" : ", ") + check.name + " is in suite " + check.suite;
    std::cerr << "xgpu: error: " << selection_text(options) << " selects no check (" << where
              << ")\n";
    return false;
  }
  if (!options.full_range.empty() && !options.full) {
    std::cerr << "xgpu: error: --full-range narrows the inputs of --full: give --full too\n";
    return false;
  }
  if (!options.full || options.list) return true;
  if (options.suites.empty() && options.checks.empty()) {
    std::cerr << "xgpu: error: --full runs for minutes per function: choose them with --suite "
                 "math and/or --check float_sin,...\n";
    return false;
  }
  std::vector<std::string> sampled;
  for (const conform::Check& check : selected) {
    const std::string why = conform::why_not_full(check);
    if (why.empty()) continue;
    const std::string name = check.suite + "/" + check.name;
    if (!options.checks.empty()) {  // named: --full was asked of it
      std::cerr << "xgpu: error: --full goes over every input of one-argument float functions "
                   "only, and "
                << name << " " << why << ": run it without --full\n";
      return false;
    }
    sampled.push_back(name);
  }
  if (sampled.size() == selected.size()) {
    std::cerr << "xgpu: error: --full goes over every input of one-argument float functions "
                 "only, and "
              << selection_text(options)
              << " selects none (choose them with --suite math or --check float_sin,...)\n";
    return false;
  }
  if (!sampled.empty()) {
    std::cerr << "xgpu conform --full: " << sampled.size() << " of the " << selected.size()
              << " checks selected are not one-argument float functions and are sampled as "
                 "without --full ("
              << sampled.front() << ", ...)\n";
  }
  return true;
}

int list_checks(const conform::Registry& registry, const Options& options) {
  const char* refused = !options.device.empty()     ? "-d"
                        : !options.profile.empty()  ? "--profile"
                        : !options.junit.empty()    ? "--junit"
                        : !options.baseline.empty() ? "--baseline"
                        : options.full              ? "--full"
                                                    : nullptr;
  if (refused != nullptr) {
    std::cerr << "xgpu: error: --list runs nothing: it takes only --suite, --check and --json "
                 "FILE, not "
              << refused << "\n";
    return kExitUsage;
  }
  const std::vector<conform::Check> checks =
      conform::selected_checks(registry, options.suites, options.checks);
  conform::write_check_list(std::cout, checks);
  if (!options.json.empty()) {
    std::ofstream out(options.json);
    out << conform::check_list_json(checks).dump(2) << "\n";
    if (!out) throw Error(Errc::invalid_argument, "cannot write " + options.json, "--json");
  }
  return kExitOk;
}

int run_conform(const Options& options) {
  // Before anything enumerates devices: the profile module reads XGPU_PROFILE once.
  std::string profile_file;
  if (!options.profile.empty() && !options.list) {
    profile_file = resolve_profile(options.profile);
    use_profile(profile_file);
  }
  conform::Registry registry = conform::all_checks();
  if (options.selftest_failure) conform::register_selftest(registry);
  const std::string unknown = conform::unknown_suite(registry, options.suites);
  if (!unknown.empty()) {
    std::string known;
    for (const std::string& s : registry.suites()) known += (known.empty() ? "" : ", ") + s;
    std::cerr << "xgpu: error: unknown suite '" << unknown << "' (suites: " << known << ")\n";
    return kExitUsage;
  }
  const std::string unknown_name = conform::unknown_check(registry, options.checks);
  if (!unknown_name.empty()) {
    std::cerr << "xgpu: error: unknown check '" << unknown_name
              << "' (a check name such as float_sin or math/float_sin)\n";
    return kExitUsage;
  }
  if (!selection_usable(registry, options)) return kExitUsage;
  if (options.list) return list_checks(registry, options);
  nlohmann::json baseline;
  if (!options.baseline.empty()) {
    std::ifstream in(options.baseline);
    if (!in) throw Error(Errc::invalid_argument, "cannot read " + options.baseline, "--baseline");
    try {
      baseline = nlohmann::json::parse(in);
    } catch (const std::exception& e) {
      throw Error(Errc::invalid_argument, options.baseline + " is not JSON: " + e.what(),
                  "--baseline");
    }
  }
  if (devices().empty()) {
    std::cerr << "xgpu: error: no device found ('xgpu query' shows what each backend found)\n";
    return kExitNoPlatform;
  }
  // --profile checks the simulated device alone, unless -d says otherwise.
  const std::vector<Device> selected = !options.device.empty() ? select_all(options.device)
                                       : !profile_file.empty() ? profile_devices(profile_file)
                                                               : devices();
  if (selected.empty())
    throw Error(Errc::no_device, "no device matches '" + options.device + "'", "xgpu conform");

  const std::vector<conform::DeviceReport> reports = run_all(registry, selected, options);
  const Style style(color_enabled(options.color, stdout));
  std::vector<std::string> suites = options.suites.empty() ? registry.suites() : options.suites;
  for (const auto& report : reports)
    for (const auto& r : report.results)
      if (r.suite == "runner" && std::find(suites.begin(), suites.end(), "runner") == suites.end())
        suites.push_back("runner");
  print_table(reports, suites, style);
  print_details(reports, conform::Outcome::fail, "Failures", style);
  print_details(reports, conform::Outcome::skip, "Skipped", style);
  if (options.verbose) print_outputs(reports, style);

  if (!options.baseline.empty()) {
    std::vector<std::string> changes;
    try {
      changes = conform::compare_baseline(baseline, reports);
    } catch (const nlohmann::json::exception& e) {
      throw Error(Errc::invalid_argument,
                  options.baseline + " is not an `xgpu conform --json` report: " + e.what(),
                  "--baseline");
    }
    std::cout << "\n" << style.bold("Changes since " + options.baseline) << "\n";
    if (changes.empty()) std::cout << "  none\n";
    for (const std::string& change : changes) std::cout << "  " << change << "\n";
  }
  if (!options.junit.empty()) {
    std::ofstream out(options.junit);
    conform::write_junit(out, reports);
    if (!out) throw Error(Errc::invalid_argument, "cannot write " + options.junit, "--junit");
  }
  if (!options.json.empty()) {
    std::ofstream out(options.json);
    // A driver's output need not be UTF-8: such bytes become U+FFFD rather than an error.
    out << conform::to_json(reports).dump(2, ' ', false, nlohmann::json::error_handler_t::replace)
        << "\n";
    if (!out) throw Error(Errc::invalid_argument, "cannot write " + options.json, "--json");
  }
  std::cout << "\n" << conform::summary_line(reports) << std::endl;  // always the last line
  return conform::exit_status(reports) == 0 ? kExitOk : kExitFailure;
}

}  // namespace

Run setup_conform(CLI::App& sub) {
  auto options = std::make_shared<Options>();
  sub.add_option("-d,--device", options->device,
                 "Devices to check (a selector; every term's matches); default: all visible");
  sub.add_option("--profile", options->profile,
                 "Run on a simulated device: a shipped profile (xgpu query --profiles) or a "
                 "profile file; sets XGPU_PROFILE and checks that device alone (docs/profiles.md)")
      ->type_name("NAME|FILE");
  sub.add_option("--suite", options->suites,
                 "Suites to run: api,memory,execution,compiler,events,atomics,math,cache,"
                 "library,integer,conversions,relational,vectors,workgroups,printf "
                 "(default: all; --list shows every check)")
      ->delimiter(',');
  sub.add_flag("--list", options->list,
               "List every check (suite/name, and the capability it needs) and run nothing");
  sub.add_flag("--quick", options->quick, "Small sizes and sampled math, for CI and simulators");
  sub.add_flag("--full", options->full,
               "Math: every one of the 2^32 float inputs of one-argument float functions "
               "(minutes per function on a GPU); with --suite math and/or --check");
  sub.add_option("--full-range", options->full_range)->group("");  // tests: FIRST:END bits
  sub.add_option("--check", options->checks,
                 "Only these checks (name or suite/name, e.g. float_sin,math/float_exp)")
      ->delimiter(',');
  sub.add_flag("-v,--verbose", options->verbose,
               "Also show what checks printed (a driver's compiler messages, xgpu's warnings), "
               "which is otherwise only kept in --json and --junit");
  sub.add_option("--junit", options->junit, "Also write JUnit XML to FILE");
  sub.add_option("--json", options->json, "Also write every result and fingerprint as JSON");
  sub.add_option("--baseline", options->baseline,
                 "Compare with an earlier --json FILE and list what changed");
  // For the tests of the command: adds a check that fails on purpose.
  sub.add_flag("--selftest-failure", options->selftest_failure)->group("");
  add_color_option(sub, options->color);
  sub.footer(
      "Examples:\n  xgpu conform                 every check on every device\n"
      "  xgpu conform -d pocl --suite math,atomics --junit report.xml\n"
      "  xgpu conform --quick --json now.json --baseline before.json\n"
      "  xgpu conform -d gpu --full --check float_sin,float_log   every float input\n"
      "  xgpu conform --list --suite atomics   the checks, without running them\n"
      "  xgpu conform --profile amd-rx-7900xtx --quick   as on that GPU's limits, on PoCL\n"
      "Exit codes: 0 nothing failed, 1 a check failed, 2 usage, 3 no device at all,\n"
      "  4 no device matches -d.");
  return [options]() { return run_conform(*options); };
}

}  // namespace xgpu::cli
