// JUnit XML and JSON reports of a conformance run, and the comparison with a baseline.
#include "report.hpp"

#include <map>
#include <set>

namespace xgpu::conform {
namespace {

std::string xml_escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        // XML 1.0 forbids most control characters even escaped.
        if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t')
          out += ' ';
        else
          out += c;
    }
  }
  return out;
}

}  // namespace

// Here rather than beside the checks: the names are what the reports write, and the
// --baseline fuzz target (tests/fuzz) links this file alone.
const char* outcome_name(Outcome outcome) {
  switch (outcome) {
    case Outcome::pass:
      return "pass";
    case Outcome::fail:
      return "fail";
    case Outcome::skip:
      return "skip";
  }
  return "?";
}

void write_junit(std::ostream& out, const std::vector<DeviceReport>& reports) {
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"xgpu conform\">\n";
  for (const DeviceReport& report : reports) {
    double seconds = 0;
    for (const CheckResult& r : report.results) seconds += r.seconds;
    out << "  <testsuite name=\"" << xml_escape(report.label) << "\" tests=\""
        << report.results.size() << "\" failures=\"" << report.count(Outcome::fail)
        << "\" errors=\"0\" skipped=\"" << report.count(Outcome::skip) << "\" time=\"" << seconds
        << "\">\n";
    for (const CheckResult& r : report.results) {
      out << "    <testcase classname=\"" << xml_escape(r.suite) << "\" name=\""
          << xml_escape(r.name) << "\" time=\"" << r.seconds << "\"";
      if (r.result.outcome == Outcome::pass && r.output.empty()) {
        out << "/>\n";
        continue;
      }
      out << ">\n";
      if (r.result.outcome == Outcome::fail)
        out << "      <failure message=\"" << xml_escape(r.result.detail) << "\">"
            << xml_escape(r.result.detail) << "</failure>\n";
      else if (r.result.outcome == Outcome::skip)
        out << "      <skipped message=\"" << xml_escape(r.result.detail) << "\"/>\n";
      if (!r.output.empty())
        out << "      <system-err>" << xml_escape(r.output) << "</system-err>\n";
      out << "    </testcase>\n";
    }
    out << "  </testsuite>\n";
  }
  out << "</testsuites>\n";
}

nlohmann::json to_json(const std::vector<DeviceReport>& reports) {
  nlohmann::json devices = nlohmann::json::array();
  for (const DeviceReport& report : reports) {
    const Fingerprint& f = report.fingerprint;
    nlohmann::json results = nlohmann::json::array();
    for (const CheckResult& r : report.results) {
      results.push_back({{"suite", r.suite},
                         {"name", r.name},
                         {"outcome", outcome_name(r.result.outcome)},
                         {"detail", r.result.detail},
                         {"seconds", r.seconds},
                         {"output", r.output}});
    }
    devices.push_back({{"label", report.label},
                       {"fingerprint",
                        {{"backend", f.backend},
                         {"platform", f.platform},
                         {"platform_version", f.platform_version},
                         {"device", f.device},
                         {"device_version", f.device_version},
                         {"driver_version", f.driver_version}}},
                       {"passed", report.count(Outcome::pass)},
                       {"failed", report.count(Outcome::fail)},
                       {"skipped", report.count(Outcome::skip)},
                       {"results", results}});
  }
  return {{"schema_version", 1}, {"devices", devices}};
}

std::vector<std::string> compare_baseline(const nlohmann::json& baseline,
                                          const std::vector<DeviceReport>& reports) {
  std::vector<std::string> changes;
  const nlohmann::json& old_devices = baseline.at("devices");
  std::vector<bool> used(old_devices.size(), false);
  for (std::size_t d = 0; d < reports.size(); ++d) {
    const DeviceReport& report = reports[d];
    const nlohmann::json* old = nullptr;
    for (std::size_t i = 0; i < old_devices.size() && !old; ++i) {
      const nlohmann::json& f = old_devices[i].at("fingerprint");
      if (!used[i] && f.value("device", "") == report.fingerprint.device &&
          f.value("platform", "") == report.fingerprint.platform)
        old = &old_devices[i], used[i] = true;
    }
    if (!old) {
      changes.push_back(report.label + ": not in the baseline");
      continue;
    }
    const std::string old_driver = old->at("fingerprint").value("driver_version", "");
    if (old_driver != report.fingerprint.driver_version)
      changes.push_back(report.label + ": driver " + old_driver + " -> " +
                        report.fingerprint.driver_version);
    std::map<std::string, std::string> before;
    for (const nlohmann::json& r : old->at("results"))
      before[r.value("suite", "") + "/" + r.value("name", "")] = r.value("outcome", "");
    std::set<std::string> suites_before;
    for (const auto& entry : before)
      suites_before.insert(entry.first.substr(0, entry.first.find('/')));
    std::map<std::string, std::size_t> new_suites;  // suites the baseline did not run at all
    for (const CheckResult& r : report.results) {
      const std::string key = r.suite + "/" + r.name, now = outcome_name(r.result.outcome);
      auto found = before.find(key);
      if (found == before.end() && !suites_before.count(r.suite))
        ++new_suites[r.suite];
      else if (found == before.end())
        changes.push_back(report.label + ": " + key + ": new, " + now);
      else if (found->second != now)
        changes.push_back(report.label + ": " + key + ": " + found->second + " -> " + now);
      if (found != before.end()) before.erase(found);
    }
    for (const auto& [suite, count] : new_suites)
      changes.push_back(report.label + ": suite " + suite + " not in the baseline (" +
                        std::to_string(count) + " checks)");
    // Checks of suites not run this time (--suite) are not "gone".
    std::set<std::string> suites_run;
    for (const CheckResult& r : report.results) suites_run.insert(r.suite);
    for (const auto& [key, outcome] : before) {
      if (suites_run.count(key.substr(0, key.find('/'))))
        changes.push_back(report.label + ": " + key + ": gone (was " + outcome + ")");
    }
  }
  for (std::size_t i = 0; i < old_devices.size(); ++i) {
    if (!used[i]) changes.push_back(old_devices[i].value("label", "?") + ": not run this time");
  }
  return changes;
}

}  // namespace xgpu::conform
