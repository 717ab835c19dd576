// `xgpu bench`: measured figures of a device, each beside its baseline from the same run.
// Suites are one file each (bench_cache.cpp, ...) and report Figures into one table.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>
#include <xgpu/device.hpp>

#include "color.hpp"
#include "command.hpp"

namespace xgpu {
class Context;
class DeviceGroup;
class Queue;
}  // namespace xgpu

namespace xgpu::cli {

/// Repetitions of one measurement, in the figure's unit.
struct Samples {
  std::vector<double> values;
  double median() const;
  double min() const;
  double max() const;
};

/// One line of a suite's table.
struct Figure {
  std::string suite, name, unit;
  Samples samples;
  std::string baseline;  ///< the figure this one is compared with, "" for none
  /// This figure's median / the baseline's median, or the median of paired rounds' own ratios
  /// (bench::compare_paired).
  double ratio = 0;
  std::string target;  ///< e.g. "<= 1.5", "" for none
  bool met = true;     ///< whether the target is met
  std::string note;
  // What the plots draw (python -m xgpu.plot; docs/BENCHMARKS.md, "The JSON report"): each is
  // written only when set.
  double flops = 0;   ///< arithmetic operations of one call
  double bytes = 0;   ///< bytes one call counts as moved (what a GB/s figure divides)
  std::string op;     ///< the library operation this figure places on the roofline
  std::string roof;   ///< "memory" or "compute:<precision>": a roof of the roofline
  std::string curve;  ///< the bandwidth curve this is a point of, at `size` bytes
  double size = 0;
};

struct BenchOptions {
  bool quick = false;
  int repetitions = 0;  ///< 0: the suite's default
};

/// A suite measures one device and appends its figures.
using Suite = void (*)(const Device& device, const BenchOptions& options,
                       std::vector<Figure>& figures);

void bench_cache(const Device& device, const BenchOptions& options, std::vector<Figure>& figures);
void bench_dispatch(const Device& device, const BenchOptions& options,
                    std::vector<Figure>& figures);
/// The varying-size figures of the dispatch suite (bench_varying.cpp).
void bench_varying_sizes(const Device& device, const BenchOptions& options,
                         std::vector<Figure>& figures);
void bench_memory(const Device& device, const BenchOptions& options, std::vector<Figure>& figures);
/// The allocator figures of the memory suite (bench_allocation.cpp).
void bench_allocator(const Device& device, const BenchOptions& options,
                     std::vector<Figure>& figures);
/// The overlap figure of the memory suite (bench_overlap.cpp).
void bench_overlap(const Device& device, const BenchOptions& options, std::vector<Figure>& figures);
void bench_compute(const Device& device, const BenchOptions& options, std::vector<Figure>& figures);
void bench_library(const Device& device, const BenchOptions& options, std::vector<Figure>& figures);
/// The mixed-precision figures of the library suite (bench_mixed.cpp): casts against the
/// triad, half-input GEMM against float GEMM on the same engine.
void bench_mixed_precision(Context& context, Queue& queue, const BenchOptions& options, int reps,
                           std::vector<Figure>& figures);
/// The `multi` suite measures a group of devices together (bench_multi.cpp).
void bench_multi(DeviceGroup& group, const BenchOptions& options, std::vector<Figure>& figures);
/// Its device-to-device copy from device 0 to device 1 (bench_device_copy.cpp); nothing for a
/// group of one.
void bench_device_copy(DeviceGroup& group, const BenchOptions& options,
                       std::vector<Figure>& figures);

/// What makes `old` no report of `xgpu bench --json` (a missing list, a figure without its
/// median, ...), or empty when it is one.
std::string bench_report_problem(const nlohmann::json& old);
/// Prints, per device of `report` matched by name in the earlier report `old` (both as
/// `--json` writes them), each case's old median, new median and change in percent.
/// Returns false, with a message on stderr, where `old` is not such a report.
bool print_comparison(const nlohmann::json& old, const nlohmann::json& report, const Style& style);

/// A new private (0700) folder under the temporary folder, for caches the bench owns.
std::string fresh_folder();

/// The hidden child modes the cache suite runs as separate processes; returns an exit code.
int bench_child(const std::string& mode);

Run setup_bench(CLI::App& sub);

}  // namespace xgpu::cli
