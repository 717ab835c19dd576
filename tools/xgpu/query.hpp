// `xgpu query`: every backend, platform and device with its capabilities.
#pragma once

#include "command.hpp"

namespace xgpu::cli {

/// Declares query's options on `sub` and returns what runs it.
Run setup_query(CLI::App& sub);

}  // namespace xgpu::cli
