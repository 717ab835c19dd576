// libFuzzer target for `xgpu conform --baseline FILE`: any JSON is compared with a run of two
// devices, or refused with a nlohmann::json exception, which the command turns into an
// error naming the file (conform_command.cpp). The run's devices and checks are those of the
// seed reports, so that the fuzzer starts from files that match.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "fuzz_support.hpp"
#include "report.hpp"

namespace {

using xgpu::conform::CheckResult;
using xgpu::conform::DeviceReport;
using xgpu::conform::Outcome;

CheckResult check(const char* suite, const char* name, Outcome outcome) {
  CheckResult result;
  result.suite = suite;
  result.name = name;
  result.result.outcome = outcome;
  return result;
}

const std::vector<DeviceReport>& run() {
  static const std::vector<DeviceReport> reports = [] {
    DeviceReport grind;
    grind.label = "opencl:0 Oclgrind Simulator (oclgrind)";
    grind.fingerprint = {"opencl",
                         "Oclgrind",
                         "OpenCL 1.2 (Oclgrind 21.10)",
                         "Oclgrind Simulator",
                         "OpenCL 1.2 (Oclgrind 21.10)",
                         "Oclgrind 21.10"};
    grind.results = {check("api", "devices_enumerate", Outcome::pass),
                     check("api", "opencl_minimums", Outcome::fail),
                     check("api", "a_new_check", Outcome::pass),
                     check("cache", "hit_is_bit_identical", Outcome::skip),
                     check("math", "float_sin", Outcome::pass)};
    DeviceReport pocl = grind;
    pocl.label = "opencl:1 pthread-skylake-avx512-AMD EPYC (pocl)";
    pocl.fingerprint = {"opencl",
                        "Portable Computing Language",
                        "OpenCL 3.0 PoCL 3.1+debian",
                        "pthread-skylake-avx512-AMD EPYC",
                        "OpenCL 3.0 PoCL",
                        "3.2"};
    return std::vector<DeviceReport>{grind, pocl};
  }();
  return reports;
}

}  // namespace

// Link-only: report.cpp's JUnit and JSON writers count outcomes (runner.cpp, which needs a
// device); compare_baseline does not. Never called; fails if it were.
std::size_t xgpu::conform::DeviceReport::count(Outcome) const { xgpu_fuzz::fail("link stub"); }

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const nlohmann::json baseline =
      nlohmann::json::parse(xgpu_fuzz::as_text(data, size), nullptr, false);
  if (baseline.is_discarded()) return 0;  // the command refuses it as "not JSON"
  try {
    for (const std::string& change : xgpu::conform::compare_baseline(baseline, run()))
      if (change.empty()) xgpu_fuzz::fail("compare_baseline listed an empty change");
  } catch (const nlohmann::json::exception&) {
    // not a report: the command says so, naming the file
  }
  return 0;
}
