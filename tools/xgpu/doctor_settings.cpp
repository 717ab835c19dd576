// `xgpu doctor --settings`: every setting of the registry (settings.def) with the value this
// process would use and where it came from, the environment or the default, and any problem
// with a value that was set.
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <xgpu/common/settings.hpp>
#include <xgpu/settings.hpp>

#include "doctor.hpp"
#include "table.hpp"

namespace xgpu::cli::doctor {
namespace {

// A library's default in a table cell: its first file, and how many more are tried.
std::string library_default(const char* field) {
  const std::vector<std::string> files = common::split_field(field);
  if (files.size() <= 1) return files.empty() ? std::string() : files.front();
  return files.front() + " or " + std::to_string(files.size() - 1) + " more, the first that opens";
}

}  // namespace

std::vector<SettingLine> settings_lines() {
  std::vector<SettingLine> lines;
  for (const common::SettingSpec& spec : common::all_settings()) {
    SettingLine line{spec.name, {}, {}, {}};
    if (const std::optional<std::string> value = common::read_setting(spec.id)) {
      line.value = *value;
      line.source = "environment";
      if (auto problem = check_setting(spec.name, *value)) line.problem = problem->message;
    } else {
      line.value = spec.type == common::SettingType::library ? library_default(spec.default_value)
                                                             : spec.default_value;
      line.source = "default";
    }
    lines.push_back(line);
  }
  return lines;
}

void print_settings(std::ostream& out, const std::vector<SettingLine>& lines, const Style& style) {
  Table table;
  table.add_column("setting");
  table.add_column("value");
  table.add_column("from");
  for (const SettingLine& line : lines) {
    const bool unset = line.source == "default" && line.value.empty();
    table.add_row(
        {line.name, line.value.empty() ? (unset ? "unset" : "(empty)") : line.value, line.source});
  }
  table.print(out, style);
  for (const SettingLine& line : lines) {
    if (!line.problem.empty()) out << style.red("problem") << ": " << line.problem << '\n';
  }
}

std::string settings_json(const std::vector<SettingLine>& lines) {
  nlohmann::json settings = nlohmann::json::array();
  for (const SettingLine& line : lines) {
    nlohmann::json entry = {{"name", line.name}, {"value", line.value}, {"source", line.source}};
    if (!line.problem.empty()) entry["problem"] = line.problem;
    settings.push_back(entry);
  }
  return nlohmann::json{{"schema_version", 1}, {"settings", settings}}.dump(2);
}

}  // namespace xgpu::cli::doctor
