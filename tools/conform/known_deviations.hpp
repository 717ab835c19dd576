// Built-ins that a driver this project tests with is known to get wrong, for the integer,
// relational, conversions and vectors suites. A check goes on past a failure of such a
// built-in on that driver and ends in a skip naming it (listed in allowed_skips), so every
// other built-in of the check is still checked and a new wrong answer still fails. A driver
// that fixes the built-in passes the check again.
#pragma once

#include <string>
#include <xgpu/xgpu.hpp>

#include "check.hpp"

namespace xgpu::conform {

struct KnownDeviation {
  const char* implementation;  // DeviceInfo::implementation
  const char* call;            // how a failure's detail begins: "sub_sat((long)"
  const char* what;
};

inline constexpr KnownDeviation kKnownDeviations[] = {
    {"oclgrind", "add_sat((long)", "Oclgrind 21.10 overflows in add_sat/sub_sat/mad_sat on long"},
    {"oclgrind", "sub_sat((long)", "Oclgrind 21.10 overflows in add_sat/sub_sat/mad_sat on long"},
    {"oclgrind", "mad_sat((long)", "Oclgrind 21.10 overflows in add_sat/sub_sat/mad_sat on long"},
    {"oclgrind", "isnormal(", "Oclgrind 21.10 calls subnormal floats normal"},
    {"oclgrind", "bitselect(float4", "Oclgrind 21.10 bitselect on floats is not bitwise"},
};

// Collects the known deviations a check meets.
class Deviations {
 public:
  explicit Deviations(const DeviceInfo& info) : implementation_(info.implementation) {}
  // Whether the failure `result` is a known deviation of this driver (then remembered).
  bool known(const Result& result) {
    for (const KnownDeviation& d : kKnownDeviations) {
      if (implementation_ == d.implementation && result.detail.rfind(d.call, 0) == 0) {
        if (seen_.empty())
          seen_ = std::string("known deviation: ") + d.what + " (" + result.detail + ")";
        return true;
      }
    }
    return false;
  }
  // pass, or a skip naming the first known deviation met.
  Result outcome() const { return seen_.empty() ? pass() : skip(seen_); }

 private:
  std::string implementation_;
  std::string seen_;
};

}  // namespace xgpu::conform
