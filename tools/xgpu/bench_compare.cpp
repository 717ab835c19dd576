// `xgpu bench --compare FILE`: each case of this run beside the same case of an earlier
// `--json` report, devices matched by name and cases by suite and case text. A case that got
// worse by more than kRegression is flagged: rates (GB/s, GFLOP/s) are worse when lower,
// times (ns, us, ms) when higher.
#include <cmath>
#include <cstdio>
#include <iostream>

#include "bench.hpp"
#include "table.hpp"

namespace xgpu::cli {
namespace {

/// The change beyond which a case is flagged: the shared machines this runs on move a median
/// by a few percent from run to run, rarely by ten.
constexpr double kRegression = 0.10;

/// Whether a larger figure is better: rates are per second; every other unit is a time.
bool higher_is_better(const std::string& unit) {
  return unit.size() > 2 && unit.compare(unit.size() - 2, 2, "/s") == 0;
}

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, value >= 100 ? "%.0f" : value >= 10 ? "%.1f" : "%.3g", value);
  return text;
}

}  // namespace

// Checked before anything is read: reading a missing member of a const JSON object is
// undefined behaviour.
std::string bench_report_problem(const nlohmann::json& old) {
  using json = nlohmann::json;
  if (!old.is_object() || !old.contains("devices") || !old["devices"].is_array())
    return "it has no \"devices\" list";
  const auto has = [](const json& object, const char* name, auto is) {
    return object.contains(name) && (object[name].*is)();
  };
  for (std::size_t d = 0; d < old["devices"].size(); ++d) {
    const json& device = old["devices"][d];
    const std::string where = "devices[" + std::to_string(d) + "]";
    if (!device.is_object() || !has(device, "device", &json::is_object) ||
        !has(device["device"], "name", &json::is_string))
      return where + " has no device name";
    if (!has(device, "figures", &json::is_array)) return where + " has no \"figures\" list";
    for (const json& figure : device["figures"]) {
      if (!figure.is_object() || !has(figure, "suite", &json::is_string) ||
          !has(figure, "case", &json::is_string) || !has(figure, "unit", &json::is_string) ||
          !has(figure, "median", &json::is_number))
        return where + " has a figure without suite, case, unit and median";
    }
  }
  return {};
}

namespace {

const nlohmann::json* find_device(const nlohmann::json& report, const std::string& name) {
  for (const auto& device : report["devices"]) {
    if (device["device"].value("name", "") == name) return &device;
  }
  return nullptr;
}

}  // namespace

bool print_comparison(const nlohmann::json& old, const nlohmann::json& report, const Style& style) {
  if (const std::string problem = bench_report_problem(old); !problem.empty()) {
    std::cerr << "xgpu: error: the file to compare with is not a report of `xgpu bench --json`: "
              << problem << "\n";
    return false;
  }
  for (const auto& device : report["devices"]) {
    const std::string name = device["device"].value("name", "");
    std::cout << '\n' << style.bold("Compared with the earlier run: " + name) << '\n';
    const nlohmann::json* before = find_device(old, name);
    if (!before) {
      std::cout << "  (the earlier run did not measure this device)\n";
      continue;
    }
    Table table;
    table.add_column("suite");
    table.add_column("case");
    table.add_column("unit");
    table.add_column("before", Table::Align::right);
    table.add_column("now", Table::Align::right);
    table.add_column("change", Table::Align::right);
    table.add_column("");
    int regressions = 0;
    for (const auto& figure : device["figures"]) {
      std::string before_text = "-", change = "new", flag;
      for (const auto& earlier : (*before)["figures"]) {
        if (earlier.value("suite", "") != figure.value("suite", "") ||
            earlier.value("case", "") != figure.value("case", "")) {
          continue;
        }
        double was = earlier.value("median", 0.0), is = figure.value("median", 0.0);
        before_text = number(was);
        if (was != 0) {
          char text[32];
          std::snprintf(text, sizeof text, "%+.1f%%", (is - was) / std::fabs(was) * 100);
          change = text;
          const double worse =
              higher_is_better(figure.value("unit", "")) ? (was - is) / was : (is - was) / was;
          if (worse > kRegression) {
            flag = "regressed";
            ++regressions;
          }
        } else {
          change = "-";
        }
      }
      table.add_row({figure.value("suite", ""), figure.value("case", ""), figure.value("unit", ""),
                     before_text, number(figure.value("median", 0.0)), change, Cell(flag, "31")});
    }
    table.print(std::cout, style);
    if (regressions > 0) {
      std::cout << regressions << " case(s) regressed by more than " << kRegression * 100
                << "% (worse median: a higher time or a lower rate)\n";
    } else {
      std::cout << "no case regressed by more than " << kRegression * 100 << "%\n";
    }
  }
  return true;
}

}  // namespace xgpu::cli
