// Reports of a conformance run: JUnit XML, JSON (with each device's fingerprint), and the
// differences from an earlier JSON report (--baseline).
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "runner.hpp"

namespace xgpu::conform {

/// One <testsuite> per device, one <testcase> per check, <failure> and <skipped message=...>.
void write_junit(std::ostream& out, const std::vector<DeviceReport>& reports);

/// {"schema_version": 1, "devices": [{"label", "fingerprint": {...}, "results": [...]}]}.
nlohmann::json to_json(const std::vector<DeviceReport>& reports);

/// Lines describing what changed from `baseline` (an earlier to_json()): a check whose
/// outcome differs, one that is new, one that is gone. Devices are matched by fingerprint
/// device name and platform, then by position.
std::vector<std::string> compare_baseline(const nlohmann::json& baseline,
                                          const std::vector<DeviceReport>& reports);

}  // namespace xgpu::conform
