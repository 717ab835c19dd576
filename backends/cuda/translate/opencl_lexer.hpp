// A small OpenCL C lexer for the translation: enough to find kernels, qualifiers, swizzles
// and vector literals, and to write the text back unchanged where nothing is rewritten.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace xgpu_cuda {

enum class TokenKind { identifier, number, punct, string, other };

struct Token {
  TokenKind kind;
  std::string text;
  std::string space_before;   ///< whitespace and comments before the token, kept verbatim
  int line = 1;               ///< line in the translated text (after #line markers: see origin)
  bool in_directive = false;  ///< part of a preprocessor line (#define bodies included)
  bool starts_directive = false;
};

/// Splits `source` into tokens; concatenating space_before + text of every token, then
/// `trailing`, gives the source back.
struct Lexed {
  std::vector<Token> tokens;
  std::string trailing;
};
Lexed lex_opencl(std::string_view source);

bool is_identifier(const Token& t, std::string_view text);

}  // namespace xgpu_cuda
