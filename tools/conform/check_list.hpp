// `xgpu conform --list`: every check with its suite, its name and the capability it needs,
// from the registry alone (no device is opened, nothing runs).
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "check.hpp"

namespace xgpu::conform {

/// The checks of `suites` (every suite when empty) named in `names` ("name" or "suite/name";
/// every check when empty), in the registry's order: what a run with --suite and --check
/// would run.
std::vector<Check> selected_checks(const Registry& registry, const std::vector<std::string>& suites,
                                   const std::vector<std::string>& names = {});

/// Why `xgpu conform --full` cannot go over every input of `check` ("takes 2 arguments (2^64
/// input pairs)", "is not a float math function"), or empty when it can: --full covers the
/// one-argument float math functions, and runs any other check as without it.
std::string why_not_full(const Check& check);

/// One line per check, "suite/name" then "needs <capability>" when it needs one, and a last
/// line "N checks in M suites".
void write_check_list(std::ostream& out, const std::vector<Check>& checks);

/// {"count": N, "checks": [{"suite", "name", "needs"}, ...]}; "needs" is "" for none.
nlohmann::json check_list_json(const std::vector<Check>& checks);

}  // namespace xgpu::conform
