// libFuzzer target for the CUDA module's OpenCL C translation (backends/cuda/translate): the
// lexer, the #if evaluator, the kernel signature parser and the rewriting, with the build
// options. The input is the OpenCL C source, or "options\0source". Checked beyond "no crash":
//  - the lexer gives the source back (the tokens and their spacing, concatenated), each
//    token with the line it is on;
//  - the same input gives the same output (text and signatures), whatever came before;
//  - every refusal is a TranslationError naming a line of the input, "input.cl:LINE: ...";
//  - the options are mapped or refused with a TranslationError.
#include <algorithm>
#include <string>

#include "fuzz_support.hpp"
#include "opencl_lexer.hpp"
#include "opencl_to_cuda.hpp"

namespace {

using xgpu_cuda::Translation;
using xgpu_cuda::TranslationError;

constexpr const char* kFile = "input.cl";

void check_lexer(std::string_view source) {
  const xgpu_cuda::Lexed lexed = xgpu_cuda::lex_opencl(source);
  std::string back;
  for (const auto& token : lexed.tokens) {
    back += token.space_before;
    // Every refusal names its token's line: the lines before the token, plus one.
    if (token.line != 1 + std::count(back.begin(), back.end(), '\n'))
      xgpu_fuzz::fail("lex_opencl puts '" + token.text + "' on line " + std::to_string(token.line));
    back += token.text;
  }
  back += lexed.trailing;
  if (back != source) xgpu_fuzz::fail("lex_opencl does not give the source back");
}

bool same(const Translation& a, const Translation& b) {
  if (a.cuda_source != b.cuda_source || a.kernels.size() != b.kernels.size()) return false;
  for (std::size_t k = 0; k < a.kernels.size(); ++k) {
    const auto &x = a.kernels[k], &y = b.kernels[k];
    if (x.name != y.name || x.params.size() != y.params.size()) return false;
    for (std::size_t p = 0; p < x.params.size(); ++p) {
      const auto &u = x.params[p], &v = y.params[p];
      if (u.name != v.name || u.type != v.type || u.space != v.space ||
          u.is_pointer != v.is_pointer || u.value_size != v.value_size)
        return false;
    }
  }
  return true;
}

// The translation, or the refusal's text; a refusal must name a line of the source.
std::string translate(std::string_view source, std::string_view options, bool half,
                      Translation& out) {
  try {
    out = xgpu_cuda::translate_opencl_c(source, kFile, options, half);
    return {};
  } catch (const TranslationError& error) {
    const long lines = 1 + std::count(source.begin(), source.end(), '\n');
    const std::string prefix = std::string(kFile) + ":" + std::to_string(error.line()) + ": ";
    if (error.line() < 1 || error.line() > lines || std::string(error.what()).rfind(prefix, 0) != 0)
      xgpu_fuzz::fail(std::string("a refusal that names no line of the input: ") + error.what());
    return error.what();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input = xgpu_fuzz::as_text(data, size);
  const std::size_t nul = input.find('\0');
  const std::string_view options = nul == std::string_view::npos ? "" : input.substr(0, nul);
  const std::string_view source = nul == std::string_view::npos ? input : input.substr(nul + 1);

  check_lexer(source);
  Translation first, second, without_half;
  const std::string refused = translate(source, options, true, first);
  translate(source, options, false, without_half);  // in between: no state may carry over
  if (translate(source, options, true, second) != refused || !same(first, second))
    xgpu_fuzz::fail("the same input translated twice gave different results");
  try {
    xgpu_cuda::nvrtc_options(options, 8, 0);
  } catch (const TranslationError&) {
    // an unknown or incomplete option, named in the message
  }
  return 0;
}
