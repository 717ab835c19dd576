#include "opencl_lexer.hpp"

#include <cctype>

namespace xgpu_cuda {
namespace {

bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Punctuators of more than one character that the translation must see whole.
const char* const kPuncts[] = {"##", "->", "<<=", ">>=", "<<", ">>", "<=", ">=", "==", "!=", "&&",
                               "||", "++", "--",  "+=",  "-=", "*=", "/=", "%=", "&=", "|=", "^="};

}  // namespace

bool is_identifier(const Token& t, std::string_view text) {
  return t.kind == TokenKind::identifier && t.text == text;
}

Lexed lex_opencl(std::string_view s) {
  Lexed out;
  std::string space;
  int line = 1;
  bool in_directive = false, line_start = true;
  std::size_t i = 0;
  while (i < s.size()) {
    const char c = s[i];
    // Whitespace, comments and line continuations go into the next token's space_before.
    if (c == '\n') {
      space += c;
      ++line;
      ++i;
      in_directive = false;
      line_start = true;
      continue;
    }
    if (c == '\\' && i + 1 < s.size() && s[i + 1] == '\n') {
      space += "\\\n";
      ++line;
      i += 2;
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(c))) {
      space += c;
      ++i;
      continue;
    }
    if (c == '/' && i + 1 < s.size() && s[i + 1] == '/') {
      while (i < s.size() && s[i] != '\n') space += s[i++];
      continue;
    }
    if (c == '/' && i + 1 < s.size() && s[i + 1] == '*') {
      std::size_t end = s.find("*/", i + 2);
      end = end == std::string_view::npos ? s.size() : end + 2;
      for (std::size_t k = i; k < end; ++k) line += s[k] == '\n';
      space.append(s.substr(i, end - i));
      i = end;
      continue;
    }
    Token t;
    t.line = line;
    t.space_before = std::move(space);
    space.clear();
    if (c == '#' && line_start) {
      in_directive = true;
      t.starts_directive = true;
    }
    t.in_directive = in_directive;
    line_start = false;
    std::size_t start = i;
    if (ident_start(c)) {
      while (i < s.size() && ident_char(s[i])) ++i;
      t.kind = TokenKind::identifier;
    } else if (std::isdigit(static_cast<unsigned char>(c)) ||
               (c == '.' && i + 1 < s.size() &&
                std::isdigit(static_cast<unsigned char>(s[i + 1])))) {
      // pp-number: digits, letters, dots, and signs after an exponent letter.
      ++i;
      while (i < s.size() &&
             (ident_char(s[i]) || s[i] == '.' ||
              ((s[i] == '+' || s[i] == '-') &&
               (s[i - 1] == 'e' || s[i - 1] == 'E' || s[i - 1] == 'p' || s[i - 1] == 'P'))))
        ++i;
      t.kind = TokenKind::number;
    } else if (c == '"' || c == '\'') {
      ++i;
      while (i < s.size() && s[i] != c && s[i] != '\n') {
        if (s[i] == '\\' && i + 1 < s.size()) {
          line += s[i + 1] == '\n';  // a line continuation inside the literal
          i += 2;
        } else {
          ++i;
        }
      }
      if (i < s.size() && s[i] == c) ++i;
      t.kind = TokenKind::string;
    } else {
      t.kind = TokenKind::punct;
      std::size_t length = 1;
      for (const char* p : kPuncts) {
        std::string_view punct(p);
        if (s.substr(i, punct.size()) == punct && punct.size() > length) length = punct.size();
      }
      i += length;
    }
    t.text.assign(s.substr(start, i - start));
    out.tokens.push_back(std::move(t));
  }
  out.trailing = std::move(space);
  return out;
}

}  // namespace xgpu_cuda
