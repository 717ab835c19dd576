// `xgpu doctor [--json] [--ascii] [--color WHEN]`: runs every check in the order a missing
// device is usually explained (the loader, the vendor drivers, xgpu's modules and variables,
// the kernel cache), prints them, and exits 0 when nothing needs fixing, 1 otherwise.
// `xgpu doctor --settings [--json]`: every setting, its value and where it came from.
#include "doctor_command.hpp"

#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>
#include <sstream>

#include "color.hpp"
#include "doctor.hpp"
#include "exit_codes.hpp"

namespace xgpu::cli {
namespace {

struct Options {
  bool json = false;
  bool settings = false;
  bool ascii = false;
  ColorMode color = ColorMode::automatic;
};

void append(doctor::Findings& all, doctor::Findings more) {
  for (doctor::Finding& finding : more) all.push_back(std::move(finding));
}

doctor::Findings run_checks() {
  const doctor::Identity who = doctor::Identity::current();
  doctor::Findings findings = doctor::check_icd_loader();
  append(findings,
         doctor::check_icd_files(doctor::plan_icds("/", doctor::IcdEnvironment::current())));
  append(findings, doctor::check_nvidia("/", who));
  append(findings, doctor::check_amd("/", who));
  append(findings, doctor::check_intel("/", who));
  append(findings, doctor::check_modules());
  append(findings, doctor::check_backend_choice());
  append(findings, doctor::check_nvrtc());
  append(findings, doctor::check_variables(doctor::xgpu_environment()));
  append(findings, doctor::check_cache());
  return findings;
}

}  // namespace

Run setup_doctor(CLI::App& sub) {
  auto options = std::make_shared<Options>();
  sub.add_flag("--json", options->json,
               "Machine-readable output (schema_version 1, docs/doctor.md)");
  sub.add_flag("--settings", options->settings,
               "Print every XGPU_* setting, its value and where it came from (the environment "
               "or the default), instead of the checks");
  sub.add_flag("--ascii", options->ascii,
               "Mark lines [ ok ] [FAIL] [ -- ] instead of \u2714 \u2718 \u2013");
  add_color_option(sub, options->color);
  sub.footer(
      "Checks the OpenCL ICD loader and its .icd files, the NVIDIA, AMD and Intel drivers\n"
      "(kernel module, device nodes and your groups, OpenCL runtime), xgpu's modules, which\n"
      "backend serves each GPU and why, NVRTC for the CUDA module, the XGPU_* variables\n"
      "and the kernel cache. Each failed line says how to fix it.\n"
      "Exit codes: 0 nothing to fix, 1 something to fix, 2 bad command line.\n"
      "Examples:\n"
      "  xgpu doctor                 the checklist\n"
      "  xgpu doctor --json          the same, for a support ticket\n"
      "  xgpu doctor --settings      every setting and its value (docs/settings.md)");
  return [options]() {
    if (options->settings) {
      const std::vector<doctor::SettingLine> lines = doctor::settings_lines();
      if (options->json) {
        std::cout << doctor::settings_json(lines) << '\n';
      } else {
        doctor::print_settings(std::cout, lines, Style(color_enabled(options->color, stdout)));
      }
      for (const doctor::SettingLine& line : lines)
        if (!line.problem.empty()) return kExitFailure;
      return kExitOk;
    }
    const doctor::Findings findings = run_checks();
    if (options->json) {
      std::cout << doctor::to_json(findings) << '\n';
    } else {
      std::ostringstream text;
      doctor::print_checklist(text, findings, doctor::symbols(options->ascii),
                              color_enabled(options->color, stdout));
      std::cout << text.str();
    }
    return doctor::count_problems(findings) == 0 ? kExitOk : kExitFailure;
  };
}

}  // namespace xgpu::cli
