// The `cache` suite of `xgpu bench`: what the kernel cache saves, across processes (a
// program's whole run, cold and warm, against the floor of starting OpenCL and making a
// context, and warm against a raw OpenCL process that loads a binary it saved itself) and
// inside one (build plus first launch, cold against a cache hit).
// PoCL's own kernel cache is turned off for the whole run (POCL_KERNEL_CACHE=0), so that
// cold means cold.
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <xgpu/xgpu.hpp>

#include "bench.hpp"
#include "bench_cache_raw.hpp"
#include "bench_cache_sgemm.hpp"

extern char** environ;

namespace xgpu::cli {
namespace {

using Clock = std::chrono::steady_clock;

double milliseconds(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

std::string self_path() {
  std::error_code error;
  auto path = std::filesystem::read_symlink("/proc/self/exe", error);
  return error ? std::string("xgpu") : path.string();
}

}  // namespace

std::string fresh_folder() {
  std::string base = std::filesystem::temp_directory_path().string() + "/xgpu-bench-XXXXXX";
  if (!mkdtemp(base.data())) throw Error(Errc::backend, "cannot make a temporary folder", "bench");
  return base;
}

namespace {

// Runs `xgpu bench --child MODE` with extra environment; returns its wall time in ms.
double run_child(const std::string& mode, const std::vector<std::string>& extra_environment) {
  std::vector<std::string> environment = extra_environment;
  for (char** variable = environ; *variable; ++variable) {
    std::string entry = *variable;
    bool overridden = false;
    for (const auto& extra : extra_environment) {
      overridden |= entry.compare(0, extra.find('=') + 1, extra, 0, extra.find('=') + 1) == 0;
    }
    if (!overridden) environment.push_back(entry);
  }
  std::vector<char*> envp;
  for (auto& entry : environment) envp.push_back(entry.data());
  envp.push_back(nullptr);
  std::string program = self_path();
  std::vector<std::string> args = {program, "bench", "--child", mode};
  std::vector<char*> argv;
  for (auto& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  auto started = Clock::now();
  pid_t pid = 0;
  if (posix_spawn(&pid, program.c_str(), nullptr, nullptr, argv.data(), envp.data()) != 0) {
    throw Error(Errc::backend, "cannot start " + program, "bench");
  }
  int status = 0;
  waitpid(pid, &status, 0);
  double elapsed = milliseconds(started);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    throw Error(Errc::backend, "benchmark child '" + mode + "' failed", "bench");
  }
  return elapsed;
}

// One SGEMM of sgemm_case::kSize^3 through the library's kernel, checked against the host.
void run_sgemm(const Context& context, const std::string& options) {
  Queue queue = context.queue();
  std::vector<float> a, b;
  sgemm_case::fill_inputs(a, b);
  std::vector<float> c(a.size(), 0.0f);
  auto da = context.alloc<float>(a.size()), db = context.alloc<float>(b.size()),
       dc = context.alloc<float>(c.size());
  queue.write(da, a);
  queue.write(db, b);
  Program program = context.build(kernels::source("gemm.cl"), options);
  const unsigned n = static_cast<unsigned>(sgemm_case::kSize);
  queue.launch(program.kernel("xgpu_gemm"), Range{sgemm_case::kGlobal, sgemm_case::kGlobal},
               Range{sgemm_case::kLocal, sgemm_case::kLocal}, n, n, n, 1.0f, da, n, db, n, 0.0f, dc,
               n);
  queue.read(dc, c.data());
  if (!sgemm_case::product_matches(a, b, c)) {
    throw Error(Errc::backend, "SGEMM gave a wrong result in the cache benchmark", "bench");
  }
}

// The raw child's folder: every embedded kernel file, so that gemm.cl's includes resolve
// with -I; the raw child saves its binary there on its first run.
std::string raw_folder_with_sources() {
  std::string folder = fresh_folder();
  for (const std::string& name : kernels::names()) {
    std::ofstream out(folder + "/" + name, std::ios::binary);
    out << kernels::source(name).text;
    if (!out) throw Error(Errc::backend, "cannot write " + folder + "/" + name, "bench");
  }
  return folder;
}

Figure figure(const std::string& name, const std::string& unit, Samples samples) {
  Figure f;
  f.suite = "cache";
  f.name = name;
  f.unit = unit;
  f.samples = std::move(samples);
  return f;
}

}  // namespace

int bench_child(const std::string& mode) {
  if (mode == "raw-sgemm") return raw_sgemm_child();  // before xgpu starts: OpenCL alone
  Device device = select();
  Context context(device);
  if (mode == "floor") {
    context.queue().finish();
    return 0;
  }
  if (mode == "sgemm") {
    run_sgemm(context, "");
    return 0;
  }
  std::cerr << "xgpu: error: unknown child mode '" << mode << "'\n";
  return 2;
}

void bench_cache(const Device& device, const BenchOptions& options, std::vector<Figure>& figures) {
  const int processes = options.repetitions ? options.repetitions : options.quick ? 3 : 10;
  const int in_process = options.repetitions ? options.repetitions : options.quick ? 2 : 5;
  const std::string selector = "XGPU_DEVICE=" + std::to_string(device.index());
  const std::string pocl_off = "POCL_KERNEL_CACHE=0";
  std::vector<std::string> folders;

  // The raw baseline: its first run, unmeasured, builds gemm.cl and saves the binary.
  const std::string raw_folder = raw_folder_with_sources();
  folders.push_back(raw_folder);
  const std::vector<std::string> raw_environment = {
      pocl_off, std::string(common::spec(kRawFolder).name) + "=" + raw_folder,
      std::string(common::spec(kRawPlatform).name) + "=" + device.info().platform_name,
      std::string(common::spec(kRawDevice).name) + "=" + device.info().name};
  run_child("raw-sgemm", raw_environment);

  Samples floor, cold, warm, raw;
  for (int i = 0; i < processes; ++i) {
    folders.push_back(fresh_folder());
    std::string folder = "XGPU_CACHE_DIR=" + folders.back();
    floor.values.push_back(run_child("floor", {selector, pocl_off, folder}));
    cold.values.push_back(run_child("sgemm", {selector, pocl_off, folder}));
    // Warm and raw take turns going first, so that neither always follows the cold build.
    for (int turn = 0; turn < 2; ++turn) {
      if ((turn + i) % 2 == 0) {
        warm.values.push_back(run_child("sgemm", {selector, pocl_off, folder}));
      } else {
        raw.values.push_back(run_child("raw-sgemm", raw_environment));
      }
    }
  }
  Figure floor_figure = figure("process floor: start, context, exit", "ms", floor);
  Figure cold_figure = figure("process with SGEMM, cold cache", "ms", cold);
  cold_figure.baseline = floor_figure.name;
  cold_figure.ratio = cold.median() / floor.median();
  Figure raw_figure = figure("raw OpenCL process with SGEMM, its own saved binary", "ms", raw);
  raw_figure.baseline = floor_figure.name;
  raw_figure.ratio = raw.median() / floor.median();
  raw_figure.note =
      "OpenCL's C API alone, clCreateProgramWithBinary from a file it saved after its first run "
      "(a hidden mode of this binary: libxgpu is loaded, but never starts a backend)";
  Figure warm_figure = figure("process with SGEMM, warm cache", "ms", warm);
  warm_figure.baseline = raw_figure.name;
  warm_figure.ratio = warm.median() / raw.median();
  warm_figure.target = "<= 1.10";
  warm_figure.met = warm_figure.ratio <= 1.10;
  Figure warm_floor_figure = figure("process with SGEMM, warm cache, over the floor", "ms", warm);
  warm_floor_figure.baseline = floor_figure.name;
  warm_floor_figure.ratio = warm.median() / floor.median();
  warm_floor_figure.target = "<= 1.5";
  warm_floor_figure.met = warm_floor_figure.ratio <= 1.5;

  // In this process (whose cache folder run_bench made private): a nonce in the options
  // makes each repetition a new program.
  std::mt19937_64 random(std::random_device{}());
  Samples cold_in, hit_in;
  for (int i = 0; i < in_process; ++i) {
    std::string options_text = "-D XGPU_BENCH_NONCE=" + std::to_string(random());
    auto started = Clock::now();
    run_sgemm(Context(device), options_text);
    cold_in.values.push_back(milliseconds(started));
    cache::flush();  // the entry is written, untimed, before the hit is measured
    started = Clock::now();
    run_sgemm(Context(device), options_text);  // a new context: no in-process reuse
    hit_in.values.push_back(milliseconds(started));
  }
  Figure hit_figure = figure("in process: context, build, first SGEMM, cache hit", "ms", hit_in);
  Figure cold_in_figure = figure("in process: context, build, first SGEMM, cold", "ms", cold_in);
  cold_in_figure.baseline = hit_figure.name;
  cold_in_figure.ratio = cold_in.median() / hit_in.median();
  cold_in_figure.target = ">= 50";
  cold_in_figure.met = cold_in_figure.ratio >= 50;

  for (const auto& folder : folders) {
    std::error_code ignored;
    std::filesystem::remove_all(folder, ignored);
  }
  figures.push_back(floor_figure);
  figures.push_back(cold_figure);
  figures.push_back(raw_figure);
  figures.push_back(warm_figure);
  figures.push_back(warm_floor_figure);
  figures.push_back(cold_in_figure);
  figures.push_back(hit_figure);
}

}  // namespace xgpu::cli
