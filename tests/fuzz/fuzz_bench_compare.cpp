// libFuzzer target for `xgpu bench --compare FILE`: any JSON (the command refuses what does
// not parse) is compared with a run, or refused by the report's shape check; never a crash
// nor an exception.
// The run is shaped as `xgpu bench --json` writes it, with the seed report's device and cases
// so that the fuzzer starts from files that match.
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "bench.hpp"
#include "color.hpp"
#include "fuzz_support.hpp"

namespace {

nlohmann::json figure(const char* suite, const char* name, const char* unit, double median) {
  return {{"suite", suite}, {"case", name},  {"unit", unit},     {"median", median},
          {"min", median},  {"max", median}, {"repetitions", 3}, {"baseline", ""},
          {"ratio", 0.0},   {"target", 0.0}, {"met", true},      {"note", ""}};
}

const nlohmann::json& run() {
  static const nlohmann::json report = {
      {"schema_version", 1},
      {"quick", true},
      {"devices",
       {{{"device",
          {{"backend", "opencl"},
           {"platform", "Portable Computing Language"},
           {"name", "pthread-skylake-avx512-AMD EPYC"},
           {"driver_version", "3.1+debian"}}},
         {"figures",
          {figure("dispatch", "empty launch, back to back, raw", "ns", 794.13),
           figure("dispatch", "launch + finish latency, xgpu", "us", 40.5),
           figure("compute", "saxpy 2^20", "GB/s", 11.5)}}}}}};
  return report;
}

// What the command prints goes nowhere: only whether it holds up counts.
struct QuietOutput {
  std::ostringstream sink;
  std::streambuf* saved_out = std::cout.rdbuf(sink.rdbuf());
  std::streambuf* saved_err = std::cerr.rdbuf(sink.rdbuf());
  ~QuietOutput() {
    std::cout.rdbuf(saved_out);
    std::cerr.rdbuf(saved_err);
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const nlohmann::json old = nlohmann::json::parse(xgpu_fuzz::as_text(data, size), nullptr, false);
  if (old.is_discarded()) return 0;  // the command refuses it as "not JSON"
  QuietOutput quiet;
  // What the shape check refuses, the command refuses before the run; past it, nothing may
  // throw (an exception escapes as a crash of this target).
  const bool refused = !xgpu::cli::bench_report_problem(old).empty();
  if (xgpu::cli::print_comparison(old, run(), xgpu::cli::Style(false)) == refused)
    xgpu_fuzz::fail("print_comparison and bench_report_problem disagree");
  return 0;
}
