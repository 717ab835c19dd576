#include "preprocessor_conditions.hpp"

#include <cctype>
#include <cstdlib>
#include <string>

namespace xgpu_cuda {
namespace {

// The evaluator's limits. Beyond them an #if is refused rather than evaluated: a recursive
// descent deeper than this could overflow the stack, and macros whose bodies repeat a macro
// grow exponentially with the 16 levels of expansion.
constexpr int kMaxNesting = 256;
constexpr std::size_t kMaxWords = 1 << 16;

// Why an #if cannot be evaluated; active_tokens() names the line.
struct Unreadable {
  std::string why;
};

// Arithmetic as the compilers' preprocessors do it: 64-bit two's complement that wraps, where
// C leaves overflow undefined. A division by 0 and a shift by a count outside 0..63 give 0.
using Unsigned = unsigned long long;
long long wrapped(Unsigned bits) { return static_cast<long long>(bits); }
long long divide(long long a, long long b) {
  return b == 0 ? 0 : b == -1 ? wrapped(0 - Unsigned(a)) : a / b;
}
long long modulo(long long a, long long b) { return b == 0 || b == -1 ? 0 : a % b; }
long long shift_left(long long a, long long n) {
  return n < 0 || n > 63 ? 0 : wrapped(Unsigned(a) << n);
}
long long shift_right(long long a, long long n) { return n < 0 || n > 63 ? 0 : a >> n; }

// A recursive-descent evaluator of a #if expression over the tokens [at, end).
class Condition {
 public:
  Condition(const std::vector<Token>& t, std::size_t begin, std::size_t end, const MacroTable& m)
      : macros_(m) {
    for (std::size_t i = begin; i < end; ++i) words_.push_back(t[i].text);
    expand_defined_and_macros();
  }
  long long value() { return conditional(); }

 private:
  // defined(X) / defined X -> 1 or 0 first, then object-like macros, then other names -> 0.
  void expand_defined_and_macros() {
    std::vector<std::string> out;
    for (std::size_t i = 0; i < words_.size(); ++i) {
      if (words_[i] == "defined") {
        std::string name;
        if (i + 1 < words_.size() && words_[i + 1] == "(" && i + 3 < words_.size()) {
          name = words_[i + 2];
          i += 3;
        } else if (i + 1 < words_.size()) {
          name = words_[++i];
        }
        out.push_back(macros_.count(name) ? "1" : "0");
        continue;
      }
      out.push_back(words_[i]);
    }
    words_.clear();
    expand_into(out, words_, 0);
  }
  void expand_into(const std::vector<std::string>& in, std::vector<std::string>& out, int depth) {
    for (const std::string& w : in) {
      const bool name =
          !w.empty() && (std::isalpha(static_cast<unsigned char>(w[0])) || w[0] == '_');
      if (!name) {
        out.push_back(w);
        continue;
      }
      auto found = macros_.find(w);
      if (found != macros_.end() && depth < 16)
        expand_into(found->second, out, depth + 1);
      else
        out.push_back("0");  // an unknown name (or a runaway macro) is 0, as in C
      if (out.size() > kMaxWords)
        throw Unreadable{"its macros expand to more than " + std::to_string(kMaxWords) + " words"};
    }
  }

  // Counts the recursion of the descent while it lasts.
  class Nested {
   public:
    explicit Nested(int& depth) : depth_(depth) {
      if (++depth_ > kMaxNesting)
        throw Unreadable{"it nests deeper than " + std::to_string(kMaxNesting) + " levels"};
    }
    ~Nested() { --depth_; }
    Nested(const Nested&) = delete;
    Nested& operator=(const Nested&) = delete;

   private:
    int& depth_;
  };

  const std::string& peek() const {
    static const std::string end;
    return at_ < words_.size() ? words_[at_] : end;
  }
  bool accept(const char* op) {
    if (peek() != op) return false;
    ++at_;
    return true;
  }
  long long conditional() {
    const Nested nested(depth_);
    long long c = logical_or();
    if (accept("?")) {
      long long a = conditional();
      accept(":");
      long long b = conditional();
      return c ? a : b;
    }
    return c;
  }
  long long logical_or() {
    long long v = logical_and();
    while (accept("||")) v = logical_and() || v;
    return v;
  }
  long long logical_and() {
    long long v = bit_or();
    while (accept("&&")) v = bit_or() && v;
    return v;
  }
  long long bit_or() {
    long long v = bit_xor();
    while (peek() == "|") ++at_, v |= bit_xor();
    return v;
  }
  long long bit_xor() {
    long long v = bit_and();
    while (accept("^")) v ^= bit_and();
    return v;
  }
  long long bit_and() {
    long long v = equality();
    while (peek() == "&") ++at_, v &= equality();
    return v;
  }
  long long equality() {
    long long v = relation();
    for (;;) {
      if (accept("=="))
        v = v == relation();
      else if (accept("!="))
        v = v != relation();
      else
        return v;
    }
  }
  long long relation() {
    long long v = shift();
    for (;;) {
      if (accept("<="))
        v = v <= shift();
      else if (accept(">="))
        v = v >= shift();
      else if (accept("<"))
        v = v < shift();
      else if (accept(">"))
        v = v > shift();
      else
        return v;
    }
  }
  long long shift() {
    long long v = additive();
    for (;;) {
      if (accept("<<"))
        v = shift_left(v, additive());
      else if (accept(">>"))
        v = shift_right(v, additive());
      else
        return v;
    }
  }
  long long additive() {
    long long v = multiplicative();
    for (;;) {
      if (accept("+"))
        v = wrapped(Unsigned(v) + Unsigned(multiplicative()));
      else if (accept("-"))
        v = wrapped(Unsigned(v) - Unsigned(multiplicative()));
      else
        return v;
    }
  }
  long long multiplicative() {
    long long v = unary();
    for (;;) {
      if (accept("*")) {
        v = wrapped(Unsigned(v) * Unsigned(unary()));
      } else if (accept("/")) {
        v = divide(v, unary());
      } else if (accept("%")) {
        v = modulo(v, unary());
      } else {
        return v;
      }
    }
  }
  long long unary() {
    const Nested nested(depth_);
    if (accept("!")) return !unary();
    if (accept("-")) return wrapped(0 - Unsigned(unary()));
    if (accept("+")) return unary();
    if (accept("~")) return ~unary();
    if (accept("(")) {
      long long v = conditional();
      accept(")");
      return v;
    }
    if (at_ >= words_.size()) return 0;
    return std::strtoll(words_[at_++].c_str(), nullptr, 0);  // 10u, 0x10: the suffix is ignored
  }

  const MacroTable& macros_;
  std::vector<std::string> words_;
  std::size_t at_ = 0;
  int depth_ = 0;
};

struct Frame {
  bool parent_active;
  bool taken;   // a branch of this #if was already active
  bool active;  // the current branch is
};

}  // namespace

std::vector<bool> active_tokens(const std::vector<Token>& t, MacroTable& macros,
                                const std::string& file) {
  std::vector<bool> active(t.size(), true);
  std::vector<Frame> stack;
  bool now = true;
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (!t[i].starts_directive || i + 1 >= t.size()) {
      active[i] = now;
      continue;
    }
    std::size_t end = i + 1;
    while (end < t.size() && t[end].in_directive && !t[end].starts_directive) ++end;
    const std::string& word = t[i + 1].text;
    auto evaluate = [&]() {
      try {
        return Condition(t, i + 2, end, macros).value() != 0;
      } catch (const Unreadable& unreadable) {
        throw TranslationError(
            file, t[i].line, "this #" + t[i + 1].text + " cannot be evaluated: " + unreadable.why);
      }
    };
    if (word == "if" || word == "ifdef" || word == "ifndef") {
      bool v = false;
      if (now) {
        const bool defined = i + 2 < end && macros.count(t[i + 2].text) > 0;
        v = word == "if" ? evaluate() : word == "ifdef" ? defined : !defined;
      }
      stack.push_back({now, v, now && v});
    } else if (word == "elif" && !stack.empty()) {
      Frame& f = stack.back();
      f.active = f.parent_active && !f.taken && evaluate();
      f.taken = f.taken || f.active;
    } else if (word == "else" && !stack.empty()) {
      Frame& f = stack.back();
      f.active = f.parent_active && !f.taken;
      f.taken = true;
    } else if (word == "endif" && !stack.empty()) {
      stack.pop_back();
    } else if (now && word == "define" && i + 2 < end) {
      const std::size_t name = i + 2;
      const bool function_like =
          name + 1 < end && t[name + 1].text == "(" && t[name + 1].space_before.empty();
      std::vector<std::string> body;
      if (!function_like)
        for (std::size_t k = name + 1; k < end; ++k) body.push_back(t[k].text);
      macros[t[name].text] = body;  // function-like ones are only "defined"
    } else if (now && word == "undef" && i + 2 < end) {
      macros.erase(t[i + 2].text);
    }
    now = stack.empty() ? true : stack.back().active;
    for (std::size_t k = i; k < end; ++k) active[k] = true;  // directives are always read
    i = end - 1;
  }
  return active;
}

}  // namespace xgpu_cuda
