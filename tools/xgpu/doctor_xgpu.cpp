// xgpu's own part of a missing device: its backend modules (found, loaded, refused and why)
// and the XGPU_* variables, checked against the settings registry (names and values); the two
// that choose devices are also checked against the devices.
#include <cstring>
#include <optional>
#include <xgpu/common/settings.hpp>
#include <xgpu/device.hpp>
#include <xgpu/error.hpp>
#include <xgpu/settings.hpp>

#include "doctor.hpp"

extern char** environ;

namespace xgpu::cli::doctor {
namespace {

const std::string kModules = "xgpu modules", kVariables = "XGPU_* variables";

std::string device_name(std::size_t index, const DeviceInfo& info) {
  return std::to_string(index) + " " + info.name + " (" + info.platform_name + ")";
}

std::string devices_count(std::size_t count) {
  return std::to_string(count) + (count == 1 ? " device" : " devices");
}

std::string joined(const std::vector<std::string>& items) {
  std::string text;
  for (const std::string& item : items) text += (text.empty() ? "" : ", ") + item;
  return text;
}

Finding device_variable(const std::string& value) {
  Finding finding{kVariables, "XGPU_DEVICE=" + value, Status::ok, {}, {}};
  try {
    xgpu::devices();
  } catch (const Error&) {
    finding.status = Status::not_applicable;
    finding.detail = "not checked: XGPU_VISIBLE_DEVICES does not parse";
    return finding;
  }
  try {
    if (auto device = xgpu::find(value)) {
      finding.detail = "xgpu::select() picks " + device_name(device->index(), device->info());
    } else {
      finding.status = Status::problem;
      finding.detail = "matches no visible device";
      finding.fix = "pick a device `xgpu query` lists (e.g. XGPU_DEVICE=0), or unset it";
    }
  } catch (const Error& error) {
    finding.status = Status::problem;
    finding.detail = error.what();
    finding.fix = "write a selector such as gpu, nvidia:0 or 2 (docs/selectors.md), or unset it";
  }
  return finding;
}

Finding visible_variable(const std::string& value) {
  Finding finding{kVariables, "XGPU_VISIBLE_DEVICES=" + value, Status::ok, {}, {}};
  try {
    const std::size_t visible = xgpu::devices().size();
    std::vector<std::string> hidden;
    for (const HiddenDevice& device : xgpu::hidden_devices()) {
      hidden.push_back(device_name(device.index, device.info));
    }
    finding.detail = hidden.empty() ? "hides no device" : "hides " + joined(hidden);
    if (visible == 0 && !hidden.empty()) {
      finding.status = Status::problem;
      finding.detail += ", which leaves none";
      finding.fix =
          "list the devices to keep (indices as `env -u XGPU_VISIBLE_DEVICES xgpu query` "
          "numbers them, or selector terms), or unset it";
    }
  } catch (const Error& error) {
    finding.status = Status::problem;
    finding.detail = error.what();
    finding.fix = "list indices or selector terms, e.g. XGPU_VISIBLE_DEVICES=0,2 or =nvidia";
  }
  return finding;
}

// Any other variable, against the settings registry (settings.def): a name xgpu does not read
// (a typo of one it does is a problem), a value it would refuse, or what it does.
Finding other_variable(const std::string& name, const std::string& value) {
  Finding finding{kVariables, name + "=" + value, Status::ok, {}, {}};
  const std::optional<SettingProblem> problem = check_setting(name, value);
  if (!problem) {
    finding.detail = common::find_setting(name)->doc;
    return finding;
  }
  if (problem->unknown_name && problem->suggestion.empty()) {
    finding.status = Status::not_applicable;  // not ours
    finding.detail = "not read by xgpu";
    return finding;
  }
  finding.status = Status::problem;
  if (problem->unknown_name) {
    finding.detail = "xgpu does not read this variable: did you mean " + problem->suggestion + "?";
    finding.fix = "rename it to " + problem->suggestion;
  } else {
    finding.detail = problem->message;
    finding.fix = problem->suggestion.empty() ? "correct it (docs/settings.md), or unset it"
                                              : "set " + name + "=" + problem->suggestion +
                                                    " (or another word above), or unset it";
  }
  return finding;
}

}  // namespace

std::map<std::string, std::string> xgpu_environment() {
  std::map<std::string, std::string> variables;
  for (char** entry = environ; entry && *entry; ++entry) {
    const char* text = *entry;
    const char* equals = std::strchr(text, '=');
    if (std::strncmp(text, "XGPU_", 5) != 0 || equals == nullptr) continue;
    variables[std::string(text, equals)] = equals + 1;
  }
  return variables;
}

Findings check_variables(const std::map<std::string, std::string>& environment) {
  Findings findings;
  if (environment.empty()) {
    findings.push_back({kVariables, "XGPU_*", Status::not_applicable, "none set", {}});
  }
  for (const auto& [name, value] : environment) {
    if (name == "XGPU_DEVICE") {
      findings.push_back(device_variable(value));
    } else if (name == "XGPU_VISIBLE_DEVICES") {
      findings.push_back(visible_variable(value));
    } else {
      findings.push_back(other_variable(name, value));
    }
  }
  return findings;
}

Findings check_modules() {
  Findings findings;
  findings.push_back(
      {kModules, "module folders", Status::ok, joined(xgpu::backend_search_path()), {}});
  std::size_t offered = 0;
  for (const BackendReport& report : xgpu::backends()) offered += report.device_count;
  for (const BackendReport& report : xgpu::backends()) {
    Finding finding{kModules, report.name, Status::ok, {}, {}};
    const std::string where = report.path.empty() ? "" : " (" + report.path + ")";
    if (report.loaded && report.device_count > 0) {
      finding.detail = "loaded, " + devices_count(report.device_count) + where;
    } else if (report.loaded) {
      // A module for hardware this machine lacks is not a problem while another has devices.
      finding.status = offered > 0 ? Status::not_applicable : Status::problem;
      finding.detail = "loaded, no device: " + report.message + where;
      finding.fix = "see the OpenCL loader and vendor checks: they say why the driver found none";
    } else if (report.message.rfind("skipped", 0) == 0) {
      finding.status = Status::not_applicable;
      finding.detail = report.message + where;
    } else {
      finding.status = Status::problem;
      finding.detail = "refused: " + report.message + where;
      finding.fix = report.path.empty()
                        ? "install xgpu's modules (lib/xgpu next to libxgpu) or point "
                          "XGPU_BACKEND_PATH at their folder"
                        : "rebuild or reinstall it with this xgpu, or remove " + report.path;
    }
    findings.push_back(finding);
  }
  try {
    std::vector<std::string> names;
    for (const Device& device : xgpu::devices()) {
      names.push_back(device_name(device.index(), device.info()));
    }
    if (names.empty()) {
      findings.push_back({kModules, "devices", Status::problem, "no visible device",
                          "see the checks above: a driver, a module or XGPU_VISIBLE_DEVICES"});
    } else {
      findings.push_back({kModules,
                          "devices",
                          Status::ok,
                          devices_count(names.size()) + " visible: " + joined(names),
                          {}});
    }
  } catch (const Error& error) {
    findings.push_back({kModules, "devices", Status::problem, error.what(),
                        "fix XGPU_VISIBLE_DEVICES or XGPU_BACKEND_ORDER (below)"});
  }
  return findings;
}

}  // namespace xgpu::cli::doctor
