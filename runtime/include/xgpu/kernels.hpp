// The OpenCL C files of kernels/, embedded into the library at build time.
#pragma once

#include <string>
#include <string_view>
#include <vector>
#include <xgpu/program.hpp>

namespace xgpu {
namespace kernels {

/// The embedded file of that name ("elementwise.cl"); throws unknown_source otherwise.
Source source(std::string_view name);
/// Names of every embedded file.
std::vector<std::string> names();
/// The embedded file's text, or nullptr when there is none of that name.
const std::string* find(std::string_view name);

}  // namespace kernels
}  // namespace xgpu
