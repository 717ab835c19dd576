// `xgpu conform`: runs the conformance checks of tools/conform on the selected devices.
#pragma once

#include "command.hpp"

namespace xgpu::cli {

/// Declares conform's options on `sub` and returns what runs it.
Run setup_conform(CLI::App& sub);

}  // namespace xgpu::cli
