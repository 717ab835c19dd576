// `xgpu bench [SUITE...] [-d SEL] [--quick] [--json FILE] [--compare FILE] [--plot DIR]`: runs
// suites on devices and prints one table per device; --json writes every repetition's median,
// min and max, --compare shows the change against such a file, --plot draws the report with
// the Python package's plotter. The `multi` suite runs once, on the selected devices together
// (default: every visible one), and only when named.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <output_capture.hpp>
#include <regex>
#include <sstream>
#include <xgpu/cache.hpp>
#include <xgpu/common/settings.hpp>
#include <xgpu/device_group.hpp>

#include "bench.hpp"
#include "exit_codes.hpp"
#include "plotter.hpp"
#include "table.hpp"

namespace xgpu::cli {
namespace {

// Runs a suite with fd 2 captured, then passes on what it printed except the compiler's
// "64 warnings generated." lines: PoCL's compiler writes them to stderr while a suite builds
// its kernels (and CLBlast's and Boost.Compute's), and they say nothing the table does not.
// Anything else (xgpu's log lines, a driver's real complaint) still reaches stderr, after
// the suite; and also when the suite throws.
void run_without_compiler_chatter(const std::function<void()>& run) {
  static const std::regex chatter("^[0-9]+ warnings? generated\\.$");
  conform::OutputCapture capture;
  auto pass_on = [&capture] {
    std::istringstream lines(capture.finish());
    for (std::string line; std::getline(lines, line);) {
      if (!std::regex_match(line, chatter)) std::cerr << line << '\n';
    }
  };
  try {
    run();
  } catch (...) {
    pass_on();
    throw;
  }
  pass_on();
}

struct SuiteSpec {
  const char* name;
  Suite run;
};
constexpr SuiteSpec kSuites[] = {{"dispatch", bench_dispatch},
                                 {"memory", bench_memory},
                                 {"compute", bench_compute},
                                 {"library", bench_library},
                                 {"cache", bench_cache}};
// Measures the selected devices as one group, after the per-device suites; not in the default
// set, whose devices (the best one) it does not share.
constexpr const char* kGroupSuite = "multi";

struct Options {
  std::vector<std::string> suites;
  std::string device;
  std::string json_file;
  std::string compare_file;
  std::string plot_folder;
  std::string child;
  BenchOptions bench;
  ColorMode color = ColorMode::automatic;
};

std::string format(double value) {
  char text[32];
  std::snprintf(text, sizeof text, value >= 100 ? "%.0f" : value >= 10 ? "%.1f" : "%.3g", value);
  return text;
}

void print_table(const std::string& heading, const std::vector<Figure>& figures,
                 const Style& style) {
  std::cout << style.bold(heading) << '\n';
  Table table;
  table.add_column("suite");
  table.add_column("case");
  table.add_column("median", Table::Align::right);
  table.add_column("unit");
  table.add_column("min", Table::Align::right);
  table.add_column("max", Table::Align::right);
  table.add_column("ratio", Table::Align::right);
  table.add_column("target");
  table.add_column("met");
  for (const Figure& f : figures) {
    std::string met = f.target.empty() ? "" : f.met ? style.green("yes") : style.red("NO");
    table.add_row({f.suite, f.name, format(f.samples.median()), f.unit, format(f.samples.min()),
                   format(f.samples.max()), f.baseline.empty() ? "" : format(f.ratio) + "x",
                   f.target, met});
  }
  table.print(std::cout, style);
  for (const Figure& f : figures) {
    if (!f.note.empty()) std::cout << "  " << f.name << ": " << f.note << '\n';
  }
}

nlohmann::json figures_list(const std::vector<Figure>& figures) {
  nlohmann::json list = nlohmann::json::array();
  for (const Figure& f : figures) {
    nlohmann::json entry = {{"suite", f.suite},
                            {"case", f.name},
                            {"unit", f.unit},
                            {"median", f.samples.median()},
                            {"min", f.samples.min()},
                            {"max", f.samples.max()},
                            {"repetitions", f.samples.values.size()},
                            {"baseline", f.baseline},
                            {"ratio", f.ratio},
                            {"target", f.target},
                            {"met", f.met},
                            {"note", f.note}};
    // What the plots need, where the figure has it.
    if (f.flops > 0) entry["flops"] = f.flops;
    if (f.bytes > 0) entry["bytes"] = f.bytes;
    if (!f.op.empty()) entry["op"] = f.op;
    if (!f.roof.empty()) entry["roof"] = f.roof;
    if (!f.curve.empty()) {
      entry["curve"] = f.curve;
      entry["size"] = f.size;
    }
    list.push_back(std::move(entry));
  }
  return list;
}

// The command line that made this report, as a shell would take it back.
std::string command_line() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::string line;
  for (std::string word; std::getline(in, word, '\0');) {
    const bool plain = !word.empty() && word.find_first_not_of(
                                            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                            "0123456789-_=+./,:@%") == std::string::npos;
    std::string quoted = "'";
    for (char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    line += (line.empty() ? "" : " ") + (plain ? word : quoted + "'");
  }
  return line;
}

// Now, in UTC (ISO 8601).
std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

nlohmann::json figures_json(const Device& device, const std::vector<Figure>& figures) {
  const DeviceInfo& info = device.info();
  return {{"device",
           {{"backend", info.backend},
            {"platform", info.platform_name},
            {"platform_version", info.platform_version},
            {"name", info.name},
            {"device_version", info.device_version},
            {"driver_version", info.driver_version}}},
          {"figures", figures_list(figures)}};
}

// A group's heading, and its entry among the report's devices: named "group: " and its
// members' names, so that --compare matches it with the same group of an earlier run.
std::string group_name(const DeviceGroup& group) {
  std::string name = "group:";
  for (std::size_t d = 0; d < group.size(); ++d)
    name += (d ? " + " : " ") + group[d].device.info().name;
  return name;
}

nlohmann::json group_json(const DeviceGroup& group, const std::vector<Figure>& figures) {
  nlohmann::json members = nlohmann::json::array();
  for (std::size_t d = 0; d < group.size(); ++d)
    members.push_back(figures_json(group[d].device, {})["device"]);
  return {{"device", {{"name", group_name(group)}, {"members", members}}},
          {"figures", figures_list(figures)}};
}

// Runs the group suite on the devices `selector` picks (every visible one when empty).
void run_group_suite(const std::string& selector, const BenchOptions& options, bool progress,
                     const Style& style, nlohmann::json& report, bool& all_met) {
  DeviceGroup group(selector.empty() ? "*" : selector);
  std::string heading = group_name(group);
  if (progress) std::cerr << "\r\x1b[K" << kGroupSuite << " on " << heading << "..." << std::flush;
  std::vector<Figure> figures;
  run_without_compiler_chatter([&] { bench_multi(group, options, figures); });
  if (progress) std::cerr << "\r\x1b[K" << std::flush;
  for (std::size_t d = 0; d < group.size(); ++d)
    heading += "\n  device " + std::to_string(d) + ": " + group[d].device.describe();
  print_table(heading, figures, style);
  for (const Figure& f : figures) all_met &= f.met;
  report["devices"].push_back(group_json(group, figures));
}

// XGPU_CACHE_DIR pointed at a fresh folder for the bench's lifetime; set before the kernel
// cache is first used, which reads it once.
class PrivateCacheFolder {
 public:
  PrivateCacheFolder() : folder_(fresh_folder()) {
    common::write_setting(common::Setting::cache_dir, folder_);
  }
  ~PrivateCacheFolder() {
    cache::flush();  // nothing may be written into the folder after it is removed
    std::error_code ignored;
    std::filesystem::remove_all(folder_, ignored);
  }
  PrivateCacheFolder(const PrivateCacheFolder&) = delete;
  PrivateCacheFolder& operator=(const PrivateCacheFolder&) = delete;

 private:
  std::string folder_;
};

// `xgpu bench mpi` is its own program, xgpu-bench-mpi beside `xgpu` (bench_mpi.cpp), so that the
// command links no MPI; exec keeps the process that mpirun started as the rank. Returns only
// when the program cannot run.
int exec_mpi_bench(const Options& options) {
  std::error_code error;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", error);
  const std::string path = (self.parent_path() / "xgpu-bench-mpi").string();
  std::vector<std::string> args = {path};
  if (!options.device.empty()) args.insert(args.end(), {"-d", options.device});
  if (options.bench.quick) args.push_back("--quick");
  if (options.bench.repetitions > 0)
    args.insert(args.end(), {"--repetitions", std::to_string(options.bench.repetitions)});
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  execv(path.c_str(), argv.data());
  std::cerr << "xgpu: error: cannot run " << path << " (" << std::strerror(errno)
            << "): this xgpu was built without MPI (libxgpu-mpi needs MPI's development files, "
               "e.g. Debian's libopenmpi-dev)\n";
  return kExitFailure;
}

int run_bench(const Options& options) {
  if (std::find(options.suites.begin(), options.suites.end(), "mpi") != options.suites.end()) {
    if (options.suites.size() > 1 || !options.json_file.empty() || !options.compare_file.empty()) {
      std::cerr << "xgpu: error: the mpi suite runs alone, under mpirun, and prints its own "
                   "table (no --json, --compare)\n";
      return kExitUsage;
    }
    return exec_mpi_bench(options);
  }
  // PoCL's own kernel cache would hide the cost xgpu's cache saves; set before any
  // OpenCL call, since PoCL reads it once at start.
  setenv("POCL_KERNEL_CACHE", "0", 1);
  if (!options.child.empty()) return bench_child(options.child);
  // Every program the bench builds is new (nonce options): it goes to a private kernel
  // cache folder, removed at the end, never to the user's.
  PrivateCacheFolder private_cache;
  std::vector<const SuiteSpec*> suites;
  bool group_suite = false;
  for (const std::string& name : options.suites) {
    if (name == kGroupSuite) {
      group_suite = true;
      continue;
    }
    auto found = std::find_if(std::begin(kSuites), std::end(kSuites),
                              [&](const SuiteSpec& s) { return name == s.name; });
    if (found == std::end(kSuites)) {
      std::cerr << "xgpu: error: unknown benchmark suite '" << name
                << "' (suites: dispatch, memory, compute, library, cache, multi, mpi)\n";
      return kExitUsage;
    }
    suites.push_back(found);
  }
  if (suites.empty() && !group_suite) {
    for (const SuiteSpec& suite : kSuites) suites.push_back(&suite);
  }
  std::vector<Device> devices;
  if (!suites.empty())
    devices = options.device.empty() ? std::vector<Device>{select()} : select_all(options.device);
  if (!suites.empty() && devices.empty()) {
    std::cerr << "xgpu: error: no device matches '" << options.device << "'\n";
    return kExitNoMatch;
  }
  Style style(color_enabled(options.color, stdout));
  nlohmann::json old;
  if (!options.compare_file.empty()) {  // read first: a bad file should not cost a whole run
    std::ifstream in(options.compare_file);
    old = nlohmann::json::parse(in, nullptr, false);
    if (!in || old.is_discarded()) {
      std::cerr << "xgpu: error: cannot read " << options.compare_file << " as JSON\n";
      return kExitUsage;
    }
    if (const std::string problem = bench_report_problem(old); !problem.empty()) {
      std::cerr << "xgpu: error: " << options.compare_file
                << " is not a report of `xgpu bench --json`: " << problem << "\n";
      return kExitUsage;
    }
  }
  // Progress goes to a terminal only: a log or a pipe gets just the tables.
  const bool progress = isatty(STDERR_FILENO);
  nlohmann::json report = {{"schema_version", 1},
                           {"quick", options.bench.quick},
                           {"command", command_line()},
                           {"date", utc_now()},  // when the run began
                           {"devices", nlohmann::json::array()}};
  bool all_met = true;
  for (const Device& device : devices) {
    std::vector<Figure> figures;
    for (const SuiteSpec* suite : suites) {
      if (progress)
        std::cerr << "\r\x1b[K" << suite->name << " on " << device.describe() << "..."
                  << std::flush;
      run_without_compiler_chatter([&] { suite->run(device, options.bench, figures); });
    }
    if (progress) std::cerr << "\r\x1b[K" << std::flush;
    print_table(device.describe(), figures, style);
    for (const Figure& f : figures) all_met &= f.met;
    report["devices"].push_back(figures_json(device, figures));
  }
  if (group_suite) run_group_suite(options.device, options.bench, progress, style, report, all_met);
  double load[3] = {0, 0, 0};
  if (getloadavg(load, 3) == 3) report["load_average"] = {load[0], load[1], load[2]};
  // --plot without --json: the report goes beside the pictures, which are drawn from it.
  std::string json_file = options.json_file;
  if (json_file.empty() && !options.plot_folder.empty()) {
    std::error_code error;
    std::filesystem::create_directories(options.plot_folder, error);
    json_file = (std::filesystem::path(options.plot_folder) / "bench.json").string();
  }
  if (!json_file.empty()) {
    std::ofstream out(json_file);
    out << report.dump(2) << '\n';
    if (!out) {
      std::cerr << "xgpu: error: cannot write " << json_file << '\n';
      return kExitFailure;
    }
  }
  if (!options.compare_file.empty() && !print_comparison(old, report, style)) return kExitUsage;
  // Targets are reported, not enforced: timings on a shared machine are noisy.
  if (!all_met) std::cout << "some targets were not met (see the 'met' column)\n";
  if (!options.plot_folder.empty()) return run_plotter({json_file, "-o", options.plot_folder});
  return kExitOk;
}

}  // namespace

Run setup_bench(CLI::App& sub) {
  auto options = std::make_shared<Options>();
  sub.add_option("suites", options->suites,
                 "Suites to run (default: all but multi and mpi): dispatch, memory, compute, "
                 "library, cache; multi (the devices together); mpi (alone, under mpirun)");
  sub.add_option("-d,--device", options->device,
                 "Devices to measure (a selector; default: the best one, for multi every one)");
  sub.add_flag("--quick", options->bench.quick, "Few repetitions at small sizes, for CI");
  sub.add_option("--repetitions", options->bench.repetitions, "Repetitions of each measurement");
  sub.add_option("--json", options->json_file, "Also write every figure as JSON to FILE");
  sub.add_option("--compare", options->compare_file,
                 "Show each case's change against FILE, an earlier --json report");
  sub.add_option("--plot", options->plot_folder,
                 "Draw the roofline, bandwidth curves and comparison into DIR (PNG and SVG; "
                 "needs the Python package: tools/setup.sh installs it)");
  sub.add_option("--child", options->child, "(internal) run as a measured child process")
      ->group("");
  add_color_option(sub, options->color);
  sub.footer(
      "Figures are medians over repetitions; each ratio compares two figures of the same run.\n"
      "Examples:\n"
      "  xgpu bench dispatch -d pocl       launch cost: xgpu against raw OpenCL\n"
      "  xgpu bench memory compute         bandwidth and peak arithmetic of the best device\n"
      "  xgpu bench cache -d pocl          kernel cache: cold and warm, in and across processes\n"
      "  xgpu bench multi                  a split saxpy and sum over every device, against the\n"
      "                                    best one alone, with the weights the split chose\n"
      "  mpirun -np 2 xgpu bench mpi       allreduce of device buffers across ranks, against\n"
      "                                    MPI_Allreduce on host buffers (docs/mpi.md)\n"
      "  xgpu bench --quick --json out.json\n"
      "  xgpu bench --quick --plot plots   the pictures too (python -m xgpu.plot out.json)\n"
      "  xgpu bench --compare out.json     the change of every case since that run");
  return [options]() { return run_bench(*options); };
}

double Samples::median() const {
  if (values.empty()) return 0;
  std::vector<double> sorted = values;
  std::sort(sorted.begin(), sorted.end());
  std::size_t mid = sorted.size() / 2;
  return sorted.size() % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
double Samples::min() const {
  return values.empty() ? 0 : *std::min_element(values.begin(), values.end());
}
double Samples::max() const {
  return values.empty() ? 0 : *std::max_element(values.begin(), values.end());
}

}  // namespace xgpu::cli
