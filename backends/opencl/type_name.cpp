// Normalization of CL_KERNEL_ARG_TYPE_NAME; pure C++ so it can be tested without a driver.
#include "type_name.hpp"

#include <cctype>
#include <vector>

namespace xgpu::backend_opencl {
namespace {

// Words that say where or how an argument lives, not what it is.
constexpr const char* kDroppedWords[] = {
    "const",      "volatile",     "restrict",   "__restrict",  "__restrict__", "__global",
    "global",     "__local",      "local",      "__constant",  "constant",     "__private",
    "private",    "__generic",    "generic",    "__read_only", "read_only",    "__write_only",
    "write_only", "__read_write", "read_write", "signed",
};

struct Rewrite {
  const char* from;
  const char* to;
};

// "unsigned" followed by a type, or alone ("unsigned" means "unsigned int" in C).
constexpr Rewrite kUnsigned[] = {
    {"char", "uchar"},
    {"short", "ushort"},
    {"int", "uint"},
    {"long", "ulong"},
};

bool is_dropped(const std::string& word) {
  for (const char* dropped : kDroppedWords) {
    if (word == dropped) return true;
  }
  return false;
}

// Identifiers and '*' become words; whitespace and anything else separate them.
std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> words;
  std::string current;
  auto flush = [&] {
    if (!current.empty()) words.push_back(current);
    current.clear();
  };
  for (char c : text) {
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') {
      current += c;
    } else {
      flush();
      if (c == '*') words.emplace_back("*");
    }
  }
  flush();
  return words;
}

// Folds "unsigned T" into "uT", in place.
std::vector<std::string> fold_unsigned(const std::vector<std::string>& words) {
  std::vector<std::string> out;
  for (size_t i = 0; i < words.size(); ++i) {
    if (words[i] != "unsigned") {
      out.push_back(words[i]);
      continue;
    }
    std::string folded = "uint";
    if (i + 1 < words.size()) {
      for (const Rewrite& rewrite : kUnsigned) {
        if (words[i + 1] == rewrite.from) {
          folded = rewrite.to;
          ++i;
          break;
        }
      }
    }
    out.push_back(folded);
  }
  return out;
}

}  // namespace

std::string normalize_type_name(const std::string& driver_name) {
  std::vector<std::string> words;
  for (const std::string& word : split(driver_name)) {
    if (!is_dropped(word)) words.push_back(word);
  }
  std::string result;
  for (const std::string& word : fold_unsigned(words)) {
    if (word != "*" && !result.empty() && result.back() != '*') result += ' ';
    result += word;
  }
  return result;
}

}  // namespace xgpu::backend_opencl
