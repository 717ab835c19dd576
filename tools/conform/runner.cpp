// The runner: filters the registry by suite, runs each check on one device, times it.
#include "runner.hpp"

#include <algorithm>
#include <chrono>
#include <memory>

#include "output_capture.hpp"

namespace xgpu::conform {

Fingerprint fingerprint(const DeviceInfo& info) {
  return {info.backend, info.platform_name,  info.platform_version,
          info.name,    info.device_version, info.driver_version};
}

std::size_t DeviceReport::count(Outcome outcome) const {
  return static_cast<std::size_t>(
      std::count_if(results.begin(), results.end(),
                    [&](const CheckResult& r) { return r.result.outcome == outcome; }));
}

std::string unknown_suite(const Registry& registry, const std::vector<std::string>& suites) {
  const std::vector<std::string> known = registry.suites();
  for (const std::string& suite : suites) {
    if (std::find(known.begin(), known.end(), suite) == known.end()) return suite;
  }
  return {};
}

namespace {

bool named(const Check& check, const std::vector<std::string>& names) {
  return std::any_of(names.begin(), names.end(), [&](const std::string& name) {
    return name == check.name || name == check.suite + "/" + check.name;
  });
}

}  // namespace

std::string unknown_check(const Registry& registry, const std::vector<std::string>& checks) {
  for (const std::string& name : checks) {
    if (!std::any_of(registry.checks().begin(), registry.checks().end(),
                     [&](const Check& check) { return named(check, {name}); }))
      return name;
  }
  return {};
}

DeviceReport run_device(const Registry& registry, const Device& device, const RunOptions& options) {
  DeviceReport report;
  report.label = device.describe();
  report.fingerprint = fingerprint(device.info());
  std::vector<const Check*> selected;
  for (const Check& check : registry.checks()) {
    if (options.suites.empty() || std::find(options.suites.begin(), options.suites.end(),
                                            check.suite) != options.suites.end())
      if (options.checks.empty() || named(check, options.checks)) selected.push_back(&check);
  }
  std::unique_ptr<Env> env;
  OutputCapture context_capture;
  try {
    env = std::make_unique<Env>(device, options.quick);
  } catch (const std::exception& e) {
    std::string output = context_capture.finish();
    report.results.push_back(
        {"runner", "context", fail(std::string("no context: ") + e.what()), 0, std::move(output)});
    return report;
  }
  context_capture.finish();  // a driver's notes while making a context are not a check's
  env->exhaustive().on = options.full;
  env->exhaustive().progress = options.full_progress;
  env->exhaustive().first = options.full_first;
  env->exhaustive().end = options.full_end;
  for (std::size_t i = 0; i < selected.size(); ++i) {
    const Check& check = *selected[i];
    if (options.progress) options.progress(i, selected.size(), check);
    const auto start = std::chrono::steady_clock::now();
    OutputCapture capture;
    Result result = run_check(check, *env);
    std::string output = capture.finish();
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    report.results.push_back(
        {check.suite, check.name, std::move(result), took.count(), std::move(output)});
  }
  return report;
}

std::string summary_line(const std::vector<DeviceReport>& reports) {
  std::size_t passed = 0, failed = 0, skipped = 0;
  for (const DeviceReport& report : reports) {
    passed += report.count(Outcome::pass);
    failed += report.count(Outcome::fail);
    skipped += report.count(Outcome::skip);
  }
  return std::to_string(passed) + " passed, " + std::to_string(failed) + " failed, " +
         std::to_string(skipped) + " skipped";
}

int exit_status(const std::vector<DeviceReport>& reports) {
  for (const DeviceReport& report : reports) {
    if (report.count(Outcome::fail) > 0) return 1;
  }
  return 0;
}

}  // namespace xgpu::conform
