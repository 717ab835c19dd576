// Which tokens the preprocessor keeps: #if / #ifdef / #ifndef / #elif / #else / #endif
// evaluated against -D options and the #define / #undef lines met on the way, so that the
// kernel signatures list only kernels that NVRTC will see (a kernel under `#ifdef
// XGPU_T_DOUBLE` exists only in the double build). Function-like macros in #if expressions
// are not expanded (they count as 0, as unknown identifiers do in C).
#pragma once

#include <vector>

#include "kernel_signature.hpp"
#include "opencl_lexer.hpp"

namespace xgpu_cuda {

/// One flag per token: true when it is in an active region. `macros` starts with the -D
/// options and ends with every object-like macro defined in an active region. Throws
/// TranslationError naming `file` and the line of an #if or #elif too deep or too large to
/// evaluate.
std::vector<bool> active_tokens(const std::vector<Token>& tokens, MacroTable& macros,
                                const std::string& file);

}  // namespace xgpu_cuda
