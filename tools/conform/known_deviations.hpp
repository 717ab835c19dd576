// Built-ins that a driver this project tests with is known to get wrong, for the integer,
// relational, conversions and vectors suites. A check goes on past a failure of such a
// built-in on that driver and ends in a skip naming it (listed in allowed_skips), so every
// other built-in of the check is still checked and a new wrong answer still fails. A driver
// that fixes the built-in passes the check again.
#pragma once

#include <regex>
#include <string>
#include <xgpu/xgpu.hpp>

#include "check.hpp"
#include "profile_backing.hpp"

namespace xgpu::conform {

struct KnownDeviation {
  const char* implementation;  // DeviceInfo::implementation
  const char* failure;         // an ECMAScript regex a failure's detail matches from its start
  const char* what;
};

inline const KnownDeviation kKnownDeviations[] = {
    {"oclgrind", R"(^(add|sub|mad)_sat\(\(long\))",
     "Oclgrind 21.10 overflows in add_sat/sub_sat/mad_sat on long"},
    {"oclgrind", R"(^isnormal\()", "Oclgrind 21.10 calls subnormal floats normal"},
    {"oclgrind", R"(^bitselect\(float4)", "Oclgrind 21.10 bitselect on floats is not bitwise"},
    {"oclgrind", R"(^convert_\w+_sat\w*\((float|double) nan\))",
     "Oclgrind 21.10 converts NaN with _sat to the type's minimum, not 0"},
    {"oclgrind", R"(^convert_\w+_rt[pn]\((float|double) -)",
     "Oclgrind 21.10 rounds negative floats to integers in _rtp/_rtn the wrong way"},
    {"oclgrind", R"(^convert_float\w*\((long|ulong) )",
     "Oclgrind 21.10 rounds long/ulong to float twice (through double)"},
};

// Collects the known deviations a check meets.
class Deviations {
 public:
  explicit Deviations(const DeviceInfo& info) : implementation_(computing_implementation(info)) {}
  // Whether the failure `result` is a known deviation of this driver (then remembered).
  bool known(const Result& result) {
    for (const KnownDeviation& d : kKnownDeviations) {
      if (implementation_ != d.implementation ||
          !std::regex_search(result.detail, std::regex(d.failure)))
        continue;
      if (seen_.empty())
        seen_ = std::string("known deviation: ") + d.what + " (" + result.detail + ")";
      return true;
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
