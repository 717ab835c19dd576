// `xgpu doctor`: a checklist of why a device may be missing, with a fix for each problem.
#pragma once

#include "command.hpp"

namespace xgpu::cli {

Run setup_doctor(CLI::App& sub);

}  // namespace xgpu::cli
