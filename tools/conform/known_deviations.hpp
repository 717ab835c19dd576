// What the table of known drivers (xgpu/common/drivers/known_drivers.def) says about the driver
// a check runs on: the wrong results it is known for, which a check that observes exactly one
// reports as a skip naming it (any other failure still fails, and a driver that fixes it passes
// again), and the inputs a check leaves out because they crash or hang that driver. The driver
// is the one that computes: a profile device's backing driver (profile_backing.hpp).
#pragma once

#include <string>
#include <xgpu/xgpu.hpp>

#include "check.hpp"

namespace xgpu::conform {

/// The skip reason when the table names, for `check` ("suite/name") on the Env's driver, a
/// wrong result whose failure pattern matches `detail` from its start (a fact without a pattern
/// matches any detail); empty when none does, and the failure counts. The reason starts with
/// "known deviation".
std::string known_deviation(const Env& env, const std::string& check, const std::string& detail);

/// Whether `check` must leave out `input` (an input's name in the table, "truncated_binary")
/// on the Env's driver, which would crash or hang on it.
bool avoids(const Env& env, const std::string& check, const char* input);

/// Collects the known deviations the running check (Env::check()) meets, one failure at a time,
/// so that a check goes on past a known wrong built-in and still checks every other one.
class Deviations {
 public:
  explicit Deviations(const Env& env) : env_(env) {}
  /// Whether the failure `result` is a known deviation of this driver (then remembered).
  bool known(const Result& result);
  /// pass, or a skip naming the first known deviation met.
  Result outcome() const { return seen_.empty() ? pass() : skip(seen_); }

 private:
  const Env& env_;
  std::string seen_;
};

}  // namespace xgpu::conform
