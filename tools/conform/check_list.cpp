// The list of checks; see check_list.hpp.
#include "check_list.hpp"

#include <algorithm>
#include <iomanip>
#include <set>

#include "math_check.hpp"

namespace xgpu::conform {

std::vector<Check> selected_checks(const Registry& registry, const std::vector<std::string>& suites,
                                   const std::vector<std::string>& names) {
  auto named = [&](const Check& check) {
    return std::any_of(names.begin(), names.end(), [&](const std::string& name) {
      return name == check.name || name == check.suite + "/" + check.name;
    });
  };
  std::vector<Check> selected;
  for (const Check& check : registry.checks()) {
    const bool in_suite =
        suites.empty() || std::find(suites.begin(), suites.end(), check.suite) != suites.end();
    if (in_suite && (names.empty() || named(check))) selected.push_back(check);
  }
  return selected;
}

std::string why_not_full(const Check& check) {
  if (check.suite == "math") {
    for (const math::Function& f : math::float_function_table()) {
      if (check.name != std::string("float_") + f.name) continue;
      if (math::full_covers(f)) return {};
      return "takes " + std::to_string(f.arity) + " arguments (2^" + std::to_string(32 * f.arity) +
             " input combinations)";
    }
  }
  return "is not a float math function";
}

void write_check_list(std::ostream& out, const std::vector<Check>& checks) {
  std::size_t width = 0;
  std::set<std::string> suites;
  for (const Check& check : checks) {
    width = std::max(width, check.suite.size() + 1 + check.name.size());
    suites.insert(check.suite);
  }
  for (const Check& check : checks) {
    const std::string name = check.suite + "/" + check.name;
    if (check.needs.empty()) {
      out << name << "\n";
    } else {
      out << std::left << std::setw(static_cast<int>(width)) << name << "  needs " << check.needs
          << "\n";
    }
  }
  out << checks.size() << (checks.size() == 1 ? " check" : " checks") << " in " << suites.size()
      << (suites.size() == 1 ? " suite" : " suites") << "\n";
}

nlohmann::json check_list_json(const std::vector<Check>& checks) {
  nlohmann::json list = nlohmann::json::array();
  for (const Check& check : checks)
    list.push_back({{"suite", check.suite}, {"name", check.name}, {"needs", check.needs}});
  return {{"count", checks.size()}, {"checks", list}};
}

}  // namespace xgpu::conform
