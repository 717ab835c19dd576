// How `xgpu doctor` shows its findings: a checklist for people, JSON for support tickets.
#include <langinfo.h>

#include <clocale>
#include <cstring>
#include <nlohmann/json.hpp>
#include <ostream>

#include "color.hpp"
#include "doctor.hpp"

namespace xgpu::cli::doctor {
namespace {

const char* status_name(Status status) {
  switch (status) {
    case Status::ok:
      return "ok";
    case Status::problem:
      return "problem";
    default:
      return "not_applicable";
  }
}

}  // namespace

Symbols symbols(bool ascii) {
  // The locale says how the terminal (or the file stdout goes to) reads bytes.
  std::setlocale(LC_CTYPE, "");
  const char* codeset = nl_langinfo(CODESET);
  const bool utf8 = codeset != nullptr &&
                    (std::strcmp(codeset, "UTF-8") == 0 || std::strcmp(codeset, "utf8") == 0);
  if (ascii || !utf8) return {"[ ok ]", "[FAIL]", "[ -- ]"};
  return {"\u2714", "\u2718", "\u2013"};
}

std::size_t count_problems(const Findings& findings) {
  std::size_t problems = 0;
  for (const Finding& finding : findings) problems += finding.status == Status::problem;
  return problems;
}

std::string verdict(const Findings& findings) {
  const std::size_t problems = count_problems(findings);
  if (problems == 0) return "all good: nothing to fix";
  return std::to_string(problems) + (problems == 1 ? " thing" : " things") +
         " to fix: see each failed line's fix above";
}

void print_checklist(std::ostream& out, const Findings& findings, const Symbols& marks,
                     bool color) {
  const Style style(color);
  std::string section;
  for (const Finding& finding : findings) {
    if (finding.section != section) {
      section = finding.section;
      out << (out.tellp() > 0 ? "\n" : "") << style.bold(section) << '\n';
    }
    const std::string mark = finding.status == Status::ok        ? style.green(marks.ok)
                             : finding.status == Status::problem ? style.red(marks.problem)
                                                                 : style.dim(marks.not_applicable);
    // Errors with context span lines: keep their later lines under the finding.
    std::string detail = finding.detail;
    for (std::size_t at = detail.find('\n'); at != std::string::npos;
         at = detail.find('\n', at + 1)) {
      detail.insert(at + 1, "      ");
    }
    out << "  " << mark << ' ' << finding.subject << ": " << detail << '\n';
    if (finding.status == Status::problem && !finding.fix.empty()) {
      out << "      " << style.yellow("fix:") << ' ' << finding.fix << '\n';
    }
  }
  const bool good = count_problems(findings) == 0;
  out << '\n' << (good ? style.green(verdict(findings)) : style.red(verdict(findings))) << '\n';
}

std::string to_json(const Findings& findings) {
  nlohmann::json checks = nlohmann::json::array();
  for (const Finding& finding : findings) {
    nlohmann::json check = {{"section", finding.section},
                            {"subject", finding.subject},
                            {"status", status_name(finding.status)},
                            {"detail", finding.detail}};
    if (finding.status == Status::problem) check["fix"] = finding.fix;
    checks.push_back(check);
  }
  return nlohmann::json{{"schema_version", 1},
                        {"ok", count_problems(findings) == 0},
                        {"problems", count_problems(findings)},
                        {"verdict", verdict(findings)},
                        {"checks", checks}}
      .dump(2, ' ', false, nlohmann::json::error_handler_t::replace);  // names may not be UTF-8
}

}  // namespace xgpu::cli::doctor
