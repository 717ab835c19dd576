// Reading a kernel's parameters from its tokens (the signature parser), shared by the
// translation and its tests.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "opencl_lexer.hpp"
#include "opencl_to_cuda.hpp"

namespace xgpu_cuda {

/// Object-like macros (`#define T float`, -DT=float) for sizing by-value parameters.
using MacroTable = std::map<std::string, std::vector<std::string>>;

/// Bytes of an OpenCL scalar or vector type name after macro expansion (3-vectors take 4
/// components), or 0 when unknown (a struct, a type made by a function-like macro).
std::size_t value_size_of(const std::vector<std::string>& type_tokens, const MacroTable& macros);

/// One parameter from its tokens (between commas). `file` for errors, and `line` for an
/// empty parameter, which has no token to name its line.
KernelParam parse_param(const std::vector<const Token*>& tokens, const MacroTable& macros,
                        const std::string& file, int line);

}  // namespace xgpu_cuda
