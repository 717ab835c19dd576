// Finds a Python with the package's plotter and runs it (plotter.hpp).
#include "plotter.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <xgpu/common/settings.hpp>

#include "exit_codes.hpp"

extern char** environ;

namespace xgpu::cli {
namespace {

// What `python -m xgpu.plot --check` exits with where xgpu is there but matplotlib is not
// (python/xgpu/plot/__main__.py); a missing package gives Python's own 1.
constexpr int kNoMatplotlib = 3;
constexpr int kCannotStart = 127;

// The Pythons to try, in order. The one reader of XGPU_PYTHON.
std::vector<std::string> candidate_pythons() {
  const std::string chosen = common::setting_text(common::Setting::python);
  if (!chosen.empty()) return {chosen};
  return {XGPU_SOURCE_VENV_PYTHON, "python3"};
}

// Runs argv (looked up on PATH when it has no '/'), quiet when asked; returns its exit status,
// kCannotStart where it could not start, 128 + N where signal N ended it.
int run(const std::vector<std::string>& args, bool quiet) {
  std::vector<char*> argv;
  for (const std::string& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (quiet) {
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  }
  // What this process printed comes first, before the child's lines.
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  pid_t pid = 0;
  const int error = posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (error != 0) return kCannotStart;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return kCannotStart;
  }
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return WIFEXITED(status) ? WEXITSTATUS(status) : kCannotStart;
}

}  // namespace

int run_plotter(const std::vector<std::string>& args) {
  std::string by_hand = "python -m xgpu.plot";
  for (const std::string& arg : args) by_hand += " " + arg;
  std::string tried, without_matplotlib;
  for (const std::string& python : candidate_pythons()) {
    const int check = run({python, "-m", "xgpu.plot", "--check"}, true);
    if (check == 0) {
      std::vector<std::string> command = {python, "-m", "xgpu.plot"};
      command.insert(command.end(), args.begin(), args.end());
      if (run(command, false) == 0) return kExitOk;
      std::cerr << "xgpu: error: the plotter failed (" << python << " -m xgpu.plot)\n";
      return kExitFailure;
    }
    if (check == kNoMatplotlib && without_matplotlib.empty()) without_matplotlib = python;
    tried += (tried.empty() ? "" : ", ") + python;
  }
  std::cerr << "xgpu: no pictures: ";
  if (!without_matplotlib.empty()) {
    std::cerr << without_matplotlib
              << " has the package xgpu but not matplotlib (install it: " << without_matplotlib
              << " -m pip install matplotlib).\n";
  } else {
    std::cerr << "no Python here has the package xgpu with its plotter (tried " << tried
              << "). tools/setup.sh installs it into .venv; elsewhere pip install '.[plot]' "
                 "from a clone, and set XGPU_PYTHON to that Python.\n";
  }
  std::cerr << "Draw them later with: " << by_hand << '\n';
  return kExitOk;
}

}  // namespace xgpu::cli
