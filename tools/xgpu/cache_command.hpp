// `xgpu cache`: where the kernel cache is, what it holds, and its upkeep.
#pragma once

#include "command.hpp"

namespace xgpu::cli {

/// Declares cache's options and actions (list, verify, prune, clear) on `sub`.
Run setup_cache(CLI::App& sub);

}  // namespace xgpu::cli
