// The exit codes every `xgpu` subcommand shares, and how an exception becomes one.
#pragma once

#include <exception>
#include <xgpu/error.hpp>

namespace xgpu::cli {

enum ExitCode : int {
  kExitOk = 0,
  kExitFailure = 1,     ///< a requirement not met, or something failed
  kExitUsage = 2,       ///< the command line (or a selector in it) is wrong
  kExitNoPlatform = 3,  ///< no backend, platform or device at all
  kExitNoMatch = 4,     ///< devices exist, but none matches
};

/// The exit code for an xgpu::Error of this kind.
int exit_code_for(Errc code) noexcept;

/// Prints "xgpu: error: <what>" on stderr for the exception in flight and returns its exit
/// code. Call only inside a catch block.
int report_current_exception() noexcept;

}  // namespace xgpu::cli
