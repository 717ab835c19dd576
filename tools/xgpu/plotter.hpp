// Runs the plotter of the Python package (`python -m xgpu.plot`, docs/plots.md) for
// `xgpu bench --plot` and `xgpu trace summary --timeline`. The package is optional: where no
// Python can import it, the commands say how to get it and go on without the pictures.
#pragma once

#include <string>
#include <vector>

namespace xgpu::cli {

/// Runs `PYTHON -m xgpu.plot ARGS...` with the first Python that has the package and
/// matplotlib: $XGPU_PYTHON when set (and then only it), else the .venv of the source tree
/// this command was built from (tools/setup.sh's), else python3 on PATH. Where there is none,
/// says how to get one and how to draw the pictures later, and returns kExitOk: a command never
/// fails for want of the package. Returns kExitFailure where the plotter ran and failed.
int run_plotter(const std::vector<std::string>& args);

}  // namespace xgpu::cli
