// `xgpu trace summary FILE`: what a trace (XGPU_TRACE, xgpu::trace::start) says, as tables:
// kernels by total device time, copies by direction with bandwidth, and where each device
// sat idle, in the manner of `nsys stats`.
#pragma once

#include <iosfwd>
#include <string>

#include "command.hpp"

namespace xgpu::cli {

Run setup_trace(CLI::App& sub);

/// Reads a trace file (complete, or cut short: an unterminated event array) and prints its
/// summary; `gaps` is how many of the longest idle gaps are listed.
void print_trace_summary(const std::string& path, std::size_t gaps, std::ostream& out);

}  // namespace xgpu::cli
