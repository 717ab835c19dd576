// The `xgpu` command: parses the command line and runs one subcommand. Each subcommand
// lives in its own file and is listed once in kCommands.
#include <CLI/CLI.hpp>
#include <iostream>
#include <string>
#include <vector>
#include <xgpu/version.hpp>

#include "bench.hpp"
#include "cache_command.hpp"
#include "command.hpp"
#include "conform_command.hpp"
#include "doctor_command.hpp"
#include "exit_codes.hpp"
#include "query.hpp"
#include "trace_command.hpp"

namespace {

using xgpu::cli::CommandSpec;

constexpr CommandSpec kCommands[] = {
    {"query", "Show every backend, platform and device with its capabilities",
     xgpu::cli::setup_query},
    {"cache", "Show, list, verify, prune or clear the shared kernel cache", xgpu::cli::setup_cache},
    {"bench", "Measure a device, beside baselines from the same run", xgpu::cli::setup_bench},
    {"conform", "Check that a device, its driver and xgpu work together", xgpu::cli::setup_conform},
    {"doctor", "Say why a device is missing: drivers, groups, modules, variables, cache",
     xgpu::cli::setup_doctor},
    {"trace", "Sum up a trace: kernels, copies, idle gaps", xgpu::cli::setup_trace},
};

std::string version_text() {
  std::string text = "xgpu " XGPU_VERSION_STRING;
  const std::string loaded = xgpu::version();
  if (loaded != XGPU_VERSION_STRING) text += " (library " + loaded + ")";
  return text;
}

// CLI11's own message, in the form every other xgpu error takes.
std::string failure_message(const CLI::App* app, const CLI::Error& error) {
  std::string text = "xgpu: error: " + std::string(error.what()) + "\n";
  std::string command = app->get_name();
  for (const CLI::App* sub : app->get_subcommands()) command += " " + sub->get_name();
  text += "Run '" + command + " --help' for the options.\n";
  return text;
}

int run(int argc, char** argv) {
  CLI::App app{
      "xgpu: one cross-vendor view of compute devices (OpenCL on NVIDIA, AMD, Intel, "
      "PoCL, ...).",
      "xgpu"};
  app.set_version_flag("--version", version_text());
  app.require_subcommand(1);
  app.failure_message(failure_message);
  app.footer("Run 'xgpu SUBCOMMAND --help' for a subcommand's options and examples.");

  std::vector<std::pair<CLI::App*, xgpu::cli::Run>> commands;
  for (const CommandSpec& spec : kCommands) {
    CLI::App* sub = app.add_subcommand(spec.name, spec.summary);
    commands.emplace_back(sub, spec.setup(*sub));
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    const int code = app.exit(error);  // prints help, version, or the failure message
    return code == 0 ? xgpu::cli::kExitOk : xgpu::cli::kExitUsage;
  }
  for (const auto& [sub, run_command] : commands) {
    if (sub->parsed()) return run_command();
  }
  return xgpu::cli::kExitUsage;  // require_subcommand(1) makes this unreachable
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (...) {
    return xgpu::cli::report_current_exception();
  }
}
