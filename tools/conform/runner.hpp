// Runs the selected suites' checks on one device and collects the results, for the
// `xgpu conform` command and the tests.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "check.hpp"

namespace xgpu::conform {

struct CheckResult {
  std::string suite, name;
  Result result;
  double seconds = 0;
  /// What the check printed (a driver's stderr, xgpu's log lines), kept off the terminal:
  /// checks that break things on purpose make drivers and the cache complain.
  std::string output;
};

/// What identifies a device and driver in a report.
struct Fingerprint {
  std::string backend, platform, platform_version, device, device_version, driver_version;
};
Fingerprint fingerprint(const DeviceInfo& info);

struct DeviceReport {
  std::string label;  ///< Device::describe()
  Fingerprint fingerprint;
  std::vector<CheckResult> results;
  std::size_t count(Outcome outcome) const;
};

struct RunOptions {
  std::vector<std::string> suites;  ///< empty: every suite
  bool quick = false;
  /// Called before each check (index, total, check), e.g. to show progress.
  std::function<void(std::size_t, std::size_t, const Check&)> progress;
  /// Only these checks ("name" or "suite/name"); empty: every check of the suites.
  std::vector<std::string> checks;
  /// --full: math checks over every float input (Env::Exhaustive), with this progress.
  bool full = false;
  std::function<void(const std::string&, double)> full_progress;
  /// --full's bit patterns [full_first, full_end): every float unless a test narrows it.
  std::uint64_t full_first = 0, full_end = std::uint64_t{1} << 32;
};

/// Runs every check of `registry` selected by the options on the device. A device whose
/// context cannot be made yields one failed check ("runner/context") instead of throwing.
DeviceReport run_device(const Registry& registry, const Device& device, const RunOptions& options);

/// Checks that the suite names exist; returns the first unknown one, or empty.
std::string unknown_suite(const Registry& registry, const std::vector<std::string>& suites);

/// Checks that the check names exist; returns the first unknown one, or empty.
std::string unknown_check(const Registry& registry, const std::vector<std::string>& checks);

/// "N passed, N failed, N skipped" over every device.
std::string summary_line(const std::vector<DeviceReport>& reports);
/// The exit status of a run: 0 when nothing failed, else 1.
int exit_status(const std::vector<DeviceReport>& reports);

}  // namespace xgpu::conform
