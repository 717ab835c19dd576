// xgpu's settings are XGPU_* environment variables; docs/settings.md lists each with its type,
// default, allowed values and what reads it. check_setting() judges one as xgpu would read it:
// for a program or a launcher that vets its environment before it starts xgpu, as
// `xgpu doctor` does.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "xgpu/export.hpp"

namespace xgpu {

/// What is wrong with a variable as xgpu reads it.
struct SettingProblem {
  bool unknown_name = false;  ///< xgpu reads no variable of that name
  /// A sentence naming the mistake and the nearest right name or word: "xgpu reads no
  /// variable XGPU_CACHE_DIRS: did you mean 'XGPU_CACHE_DIR'?", "XGPU_GEMM='blas' is not one
  /// of auto, ...: did you mean 'vendor_blas'?", "XGPU_CACHE_MAX_SIZE='lots' is not a size".
  std::string message;
  std::string suggestion;  ///< the nearest name (or word) xgpu knows; empty when none is near
};

/// The problem with the variable `name` set to `value`, or nullopt when xgpu reads it as
/// given: names, words, sizes and memory limits are judged. Selectors, paths and libraries are
/// not: which devices and files exist decides those (`xgpu doctor` checks the selectors).
XGPU_API std::optional<SettingProblem> check_setting(std::string_view name, std::string_view value);

}  // namespace xgpu
