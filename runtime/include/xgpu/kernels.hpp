// The OpenCL C files of kernels/, embedded into the library at build time.
#pragma once

#include <string>
#include <string_view>
#include <vector>
#include <xgpu/export.hpp>
#include <xgpu/program.hpp>

namespace xgpu {
namespace kernels {

/// The embedded file of that name ("elementwise.cl"); throws unknown_source otherwise.
XGPU_API Source source(std::string_view name);
/// Names of every embedded file.
XGPU_API std::vector<std::string> names();
/// The embedded file's text, or nullptr when there is none of that name.
XGPU_API const std::string* find(std::string_view name);

}  // namespace kernels
}  // namespace xgpu
