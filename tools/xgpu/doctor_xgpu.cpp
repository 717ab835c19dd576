// xgpu's own part of a missing device: its backend modules (found, loaded, refused and why)
// and the XGPU_* variables that change the device list or the library's behaviour.
#include <algorithm>
#include <cstring>
#include <set>
#include <xgpu/cache.hpp>
#include <xgpu/device.hpp>
#include <xgpu/error.hpp>

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

// Variables whose value is one word of a fixed list.
const std::map<std::string, std::pair<std::string, std::set<std::string>>>& word_variables() {
  static const std::map<std::string, std::pair<std::string, std::set<std::string>>> table = {
      {"XGPU_CACHE", {"kernel cache on (1), off (0) or read-only (ro)", {"1", "0", "ro"}}},
      {"XGPU_LOG_LEVEL",
       {"log level of xgpu's loggers",
        {"trace", "debug", "info", "warn", "warning", "err", "error", "critical", "off"}}},
      {"XGPU_GEMM",
       {"forces xgpu::gemm's engine", {"auto", "automatic", "vendor_blas", "kernel", "host_blas"}}},
  };
  return table;
}

const std::set<std::string>& shape_variables() {
  static const std::set<std::string> names = {
      "XGPU_ELEMENTWISE_SHAPE", "XGPU_GEMM_SHAPE", "XGPU_REDUCE_SHAPE",   "XGPU_SCAN_SHAPE",
      "XGPU_SOFTMAX_SHAPE",     "XGPU_SORT_SHAPE", "XGPU_TRANSPOSE_SHAPE"};
  return names;
}

std::vector<std::string> known_names() {
  std::vector<std::string> names = {
      "XGPU_DEVICE",    "XGPU_VISIBLE_DEVICES", "XGPU_BACKEND_PATH",
      "XGPU_CACHE_DIR", "XGPU_CACHE_MAX_SIZE",  "XGPU_CACHE_TEST_STALL_WRITE",
      "XGPU_HOST_BLAS", "XGPU_CLBLAST_LIBRARY", "XGPU_BACKEND_ORDER"};
  for (const auto& entry : word_variables()) names.push_back(entry.first);
  names.insert(names.end(), shape_variables().begin(), shape_variables().end());
  return names;
}

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
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
          "list the devices to keep (indices as `XGPU_VISIBLE_DEVICES= xgpu query` "
          "numbers them, or selector terms), or unset it";
    }
  } catch (const Error& error) {
    finding.status = Status::problem;
    finding.detail = error.what();
    finding.fix = "list indices or selector terms, e.g. XGPU_VISIBLE_DEVICES=0,2 or =nvidia";
  }
  return finding;
}

Finding other_variable(const std::string& name, const std::string& value) {
  Finding finding{kVariables, name + "=" + value, Status::ok, {}, {}};
  auto bad = [&](const std::string& why, const std::string& fix) {
    finding.status = Status::problem;
    finding.detail = why;
    finding.fix = fix;
    return finding;
  };
  if (auto word = word_variables().find(name); word != word_variables().end()) {
    if (word->second.second.count(value) == 0) {
      std::vector<std::string> allowed(word->second.second.begin(), word->second.second.end());
      return bad("'" + value + "' is not one of " + joined(allowed) + "; " + word->second.first,
                 "set one of those words, or unset it");
    }
    finding.detail = word->second.first;
    return finding;
  }
  if (shape_variables().count(name) != 0) {
    if (value != "cpu" && value != "gpu") {
      return bad("'" + value + "' is not cpu or gpu", "set cpu or gpu, or unset it");
    }
    finding.detail = "forces the algorithm's " + value + " kernel layout on every device";
    return finding;
  }
  if (name == "XGPU_CACHE_MAX_SIZE") {
    try {
      cache::parse_size(value);
      finding.detail = "the kernel cache's size cap";
    } catch (const Error& error) {
      return bad(error.what(), "write a size such as 512M or 2G");
    }
    return finding;
  }
  if (name == "XGPU_BACKEND_PATH") {
    finding.detail = "module folders searched first (see the modules above)";
    return finding;
  }
  if (name == "XGPU_BACKEND_ORDER") {
    try {
      finding.detail = "modules serving a GPU that several see, first preferred: " +
                       joined(xgpu::backend_order()) + " (see Backend choice)";
    } catch (const Error& error) {
      return bad(error.what(), "list module names, first preferred (e.g. cuda,opencl)");
    }
    return finding;
  }
  if (name == "XGPU_CACHE_DIR") {
    finding.detail = "the kernel cache's folder (see below)";
    return finding;
  }
  if (name == "XGPU_HOST_BLAS" || name == "XGPU_CLBLAST_LIBRARY") {
    finding.detail = "the library xgpu::gemm opens instead of the default";
    return finding;
  }
  if (name == "XGPU_CACHE_TEST_STALL_WRITE") {
    finding.detail = "a test hook: slows every cache write";
    return finding;
  }
  // Not read by xgpu: a typo of a variable it reads is a problem, anything else is not ours.
  for (const std::string& known : known_names()) {
    if (edit_distance(name, known) <= 2) {
      return bad("xgpu does not read this variable: did you mean " + known + "?",
                 "rename it to " + known);
    }
  }
  finding.status = Status::not_applicable;
  finding.detail = "not read by xgpu";
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
