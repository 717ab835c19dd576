// The shape every subcommand of `xgpu` takes, so that main.cpp lists them in one table and
// adding `conform`, `bench` or `cache` is one file plus one line there.
#pragma once

#include <functional>

namespace CLI {
class App;
}

namespace xgpu::cli {

/// Runs a parsed subcommand; returns the process exit code (see exit_codes.hpp). May throw:
/// main.cpp turns any exception into a message and an exit code.
using Run = std::function<int()>;

/// Declares a subcommand's options on `sub` and returns what runs it once the command line
/// is parsed. The returned function owns the options' storage.
using Setup = Run (*)(CLI::App& sub);

struct CommandSpec {
  const char* name;
  const char* summary;
  Setup setup;
};

}  // namespace xgpu::cli
