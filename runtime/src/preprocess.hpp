// Expands `#include "name"` between OpenCL C sources before the driver sees them, with
// #line markers so that build logs name the right file and line. The expanded text is
// also what identifies a program for the kernel cache (every header inside it).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "xgpu/program.hpp"

namespace xgpu::detail {

/// The expanded text, and where each of its lines came from.
struct ExpandedSource {
  std::string text;
  std::vector<std::pair<std::string, int>> origins;  ///< per line of text: file, line
};

/// Headers are searched in `headers`, then in the embedded kernels/ files. Each file is
/// included at most once per program (as with #pragma once). `#include <...>` is left to
/// the driver. Throws xgpu::Error (unknown_source) naming the file and line of an
/// include that finds nothing.
ExpandedSource expand_includes(const Source& source, const std::vector<Source>& headers);

/// Rewrites "input.cl:12:5:"-style locations that a driver reports against the expanded
/// text (drivers that ignore #line, such as Oclgrind) into the original file and line.
std::string remap_log(const std::string& log, const ExpandedSource& expanded);

}  // namespace xgpu::detail
