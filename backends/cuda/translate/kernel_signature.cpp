#include "kernel_signature.hpp"

#include <set>

namespace xgpu_cuda {
namespace {

const std::map<std::string, std::size_t>& scalar_sizes() {
  static const std::map<std::string, std::size_t> sizes = {
      {"bool", 1},   {"char", 1},      {"uchar", 1},    {"short", 2},    {"ushort", 2}, {"int", 4},
      {"uint", 4},   {"long", 8},      {"ulong", 8},    {"float", 4},    {"double", 8}, {"half", 2},
      {"size_t", 8}, {"ptrdiff_t", 8}, {"intptr_t", 8}, {"uintptr_t", 8}};
  return sizes;
}

const std::set<std::string>& qualifiers() {
  static const std::set<std::string> words = {
      "__global",     "global",     "__local",      "local",       "__constant",
      "constant",     "__private",  "private",      "const",       "volatile",
      "restrict",     "__restrict", "__restrict__", "__read_only", "read_only",
      "__write_only", "write_only", "__read_write", "read_write"};
  return words;
}

// A type is a few words; more, after expansion, is no type this sizes.
constexpr std::size_t kMaxTypeWords = 64;

// Expands object-like macros, bounded in depth (a self-referencing macro cannot loop) and in
// length (macros that repeat a macro grow exponentially with the depth): the expansion stops
// past kMaxTypeWords.
std::vector<std::string> expand(const std::vector<std::string>& tokens, const MacroTable& macros,
                                int depth = 0) {
  std::vector<std::string> out;
  for (const std::string& t : tokens) {
    if (out.size() > kMaxTypeWords) break;
    auto found = macros.find(t);
    if (found == macros.end() || depth > 16) {
      out.push_back(t);
      continue;
    }
    for (const std::string& e : expand(found->second, macros, depth + 1)) out.push_back(e);
  }
  return out;
}

}  // namespace

std::size_t value_size_of(const std::vector<std::string>& type_tokens, const MacroTable& macros) {
  std::vector<std::string> words;
  const std::vector<std::string> expanded = expand(type_tokens, macros);
  if (expanded.size() > kMaxTypeWords) return 0;
  for (const std::string& t : expanded)
    if (qualifiers().count(t) == 0) words.push_back(t);
  // "unsigned int", "unsigned char", "unsigned long" and plain "unsigned".
  if (!words.empty() && words[0] == "unsigned") {
    if (words.size() == 1) return 4;
    words.erase(words.begin());
  }
  if (words.size() != 1) return 0;
  const std::string& name = words[0];
  for (const auto& [scalar, size] : scalar_sizes()) {
    if (name.compare(0, scalar.size(), scalar) != 0) continue;
    const std::string rest = name.substr(scalar.size());
    if (rest.empty()) return size;
    if (rest == "2") return 2 * size;
    if (rest == "3" || rest == "4") return 4 * size;
    if (rest == "8") return 8 * size;
    if (rest == "16") return 16 * size;
  }
  return 0;
}

KernelParam parse_param(const std::vector<const Token*>& tokens, const MacroTable& macros,
                        const std::string& file, int line) {
  KernelParam param;
  if (tokens.empty()) throw TranslationError(file, line, "an empty kernel parameter");
  // The name is the last identifier that is not followed by '(' (array brackets allowed).
  std::size_t name_at = tokens.size();
  for (std::size_t i = tokens.size(); i-- > 0;) {
    if (tokens[i]->kind == TokenKind::identifier && qualifiers().count(tokens[i]->text) == 0) {
      name_at = i;
      break;
    }
  }
  if (name_at == tokens.size() || name_at == 0)
    throw TranslationError(file, tokens[0]->line, "a kernel parameter without a name");
  param.name = tokens[name_at]->text;
  std::vector<std::string> type_words;
  bool has_space = false;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const std::string& t = tokens[i]->text;
    if (i == name_at) continue;
    if (t == "[") {  // `float a[]` is a pointer
      param.is_pointer = true;
      break;
    }
    if (!param.type.empty() && t != "*") param.type += ' ';
    param.type += t;
    if (t == "*") {
      param.is_pointer = true;
      continue;
    }
    if (t == "__global" || t == "global") param.space = AddressSpace::global_, has_space = true;
    if (t == "__local" || t == "local") param.space = AddressSpace::local_, has_space = true;
    if (t == "__constant" || t == "constant")
      param.space = AddressSpace::constant_, has_space = true;
    if (t == "__private" || t == "private") param.space = AddressSpace::private_, has_space = true;
    type_words.push_back(t);
  }
  // A kernel pointer without a qualifier is a global one in practice (OpenCL 2.0 generic).
  if (param.is_pointer && !has_space) param.space = AddressSpace::global_;
  if (!param.is_pointer) param.value_size = value_size_of(type_words, macros);
  return param;
}

}  // namespace xgpu_cuda
