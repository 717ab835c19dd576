// The translation: OpenCL C tokens in, CUDA C++ for NVRTC out, behind the embedded prelude.
// What is rewritten here rather than in the prelude is what a macro cannot do: kernel
// parameters in __local memory, __local and __constant variables, swizzles, vector literals.
#include "opencl_to_cuda.hpp"

#include <algorithm>
#include <map>
#include <regex>
#include <set>

#include "kernel_signature.hpp"
#include "opencl_lexer.hpp"
#include "prelude_text.hpp"
#include "preprocessor_conditions.hpp"
#include "unsupported_features.hpp"

namespace xgpu_cuda {

TranslationError::TranslationError(const std::string& file, int line, const std::string& message)
    : std::runtime_error(file + ":" + std::to_string(line) + ": " + message),
      line_(line),
      message_(message) {}

namespace {

const std::regex& swizzle_pattern() {
  static const std::regex pattern("([sS][0-9a-fA-F]+)|([xyzw]{1,4})|lo|hi|even|odd");
  return pattern;
}
const std::regex& vector_type_pattern() {
  static const std::regex pattern("(u?char|u?short|u?int|u?long|float|double|half)(2|3|4|8|16)");
  return pattern;
}

int hex_digit(char c) { return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10; }

// `.s01` -> `.sw<0,1>()`, `.lo` -> `.lo_()`; one component (`.x`, `.s3`) stays a member
// (`.S3` is spelled `.s3`).
std::string swizzle_call(const std::string& name) {
  if (name == "lo" || name == "hi" || name == "even" || name == "odd") return name + "_()";
  std::vector<int> index;
  if (name[0] == 's' || name[0] == 'S') {
    for (std::size_t i = 1; i < name.size(); ++i) index.push_back(hex_digit(name[i]));
  } else {
    for (char c : name) index.push_back(c == 'x' ? 0 : c == 'y' ? 1 : c == 'z' ? 2 : 3);
  }
  if (index.size() == 1) return name[0] == 'S' ? "s" + name.substr(1) : name;
  std::string call = "sw<";
  for (std::size_t i = 0; i < index.size(); ++i) call += (i ? "," : "") + std::to_string(index[i]);
  return call + ">()";
}

class Translator {
 public:
  Translator(std::string_view source, std::string_view file, std::string_view options,
             bool half_arithmetic)
      : lexed_(lex_opencl(source)), t_(lexed_.tokens), file_(file) {
    // The prelude defines cl_khr_fp16 for such targets only (prelude_half.cuh).
    if (half_arithmetic) macros_["cl_khr_fp16"] = {"1"};
    read_option_macros(options);
  }

  Translation run() {
    collect_macros_and_fields();
    out_.resize(t_.size());
    for (std::size_t i = 0; i < t_.size(); ++i) out_[i] = t_[i].text;
    check_features();
    drop_opencl_pragmas();
    spell_qualifiers();
    rewrite_address_spaces();
    rewrite_vector_literals();
    rewrite_half_literals();
    rewrite_swizzles();
    rewrite_vec_step_of_types();
    rewrite_kernels();  // last: it inserts text after tokens that the others matched
    Translation result;
    result.cuda_source = prelude_text();
    result.cuda_source += "\n" + option_defines_;
    result.cuda_source += "#line 1 \"" + file_ + "\"\n";
    for (std::size_t i = 0; i < t_.size(); ++i) result.cuda_source += t_[i].space_before + out_[i];
    result.cuda_source += lexed_.trailing;
    signatures_from_macro_uses();
    std::stable_sort(kernels_.begin(), kernels_.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    for (auto& [at, signature] : kernels_) result.kernels.push_back(std::move(signature));
    return result;
  }

 private:
  [[noreturn]] void fail(std::size_t i, const std::string& message) const {
    throw TranslationError(file_, i < t_.size() ? t_[i].line : 0, message);
  }
  bool is(std::size_t i, std::string_view text) const {
    return i < t_.size() && t_[i].text == text;
  }
  bool ident(std::size_t i) const { return i < t_.size() && t_[i].kind == TokenKind::identifier; }

  // The closing token of the bracket at i.
  std::size_t match(std::size_t i) const {
    const std::string open = t_[i].text;
    const std::string close = open == "(" ? ")" : open == "[" ? "]" : "}";
    int depth = 0;
    for (std::size_t k = i; k < t_.size(); ++k) {
      if (t_[k].text == open) ++depth;
      if (t_[k].text == close && --depth == 0) return k;
    }
    fail(i, "unbalanced '" + open + "'");
  }

  void read_option_macros(std::string_view options) {
    // What the prelude defines, for the conditionals (prelude_types.cuh).
    for (const char* name :
         {"cl_khr_fp64", "cl_khr_global_int32_base_atomics", "cl_khr_local_int32_base_atomics",
          "cl_khr_int64_base_atomics", "__ENDIAN_LITTLE__", "CL_VERSION_1_0", "CL_VERSION_1_1",
          "CL_VERSION_1_2"})
      macros_[name] = {"1"};
    macros_["__OPENCL_VERSION__"] = macros_["__OPENCL_C_VERSION__"] = {"120"};
    macros_["CL_VERSION_1_0"] = {"100"};
    macros_["CL_VERSION_1_1"] = {"110"};
    macros_["CL_VERSION_1_2"] = {"120"};
    std::size_t i = 0;
    std::vector<std::string> words;
    std::string word;
    for (char c : options) {
      if (c == ' ' || c == '\t' || c == '\n') {
        if (!word.empty()) words.push_back(word), word.clear();
      } else {
        word += c;
      }
    }
    if (!word.empty()) words.push_back(word);
    for (; i < words.size(); ++i) {
      std::string d = words[i];
      if (d == "-D" && i + 1 < words.size()) d = "-D" + words[++i];
      if (d == "-U" && i + 1 < words.size()) d = "-U" + words[++i];
      // -D and -U become lines after the prelude, not NVRTC options: NVRTC applies its
      // options before its own built-in headers, which `-DT=float` breaks (their templates
      // have a parameter T), and before the prelude, which would break the same way.
      if (d.rfind("-U", 0) == 0) {
        macros_.erase(d.substr(2));
        option_defines_ += "#undef " + d.substr(2) + "\n";
        continue;
      }
      if (d.rfind("-D", 0) != 0) continue;
      d = d.substr(2);
      const std::size_t eq = d.find('=');
      const std::string name = d.substr(0, eq),
                        value = eq == std::string::npos ? "1" : d.substr(eq + 1);
      macros_[name] = {value};
      option_defines_ += "#define " + name + " " + value + "\n";
    }
  }

  // Which tokens the conditionals keep (and the object-like macros, for parameter sizes),
  // and the member names of structs and unions, which are never swizzles.
  void collect_macros_and_fields() {
    active_ = active_tokens(t_, macros_, file_);
    for (std::size_t i = 0; i + 2 < t_.size(); ++i) {
      if ((is(i, "struct") || is(i, "union")) &&
          (is(i + 1, "{") || (ident(i + 1) && is(i + 2, "{")))) {
        const std::size_t open = is(i + 1, "{") ? i + 1 : i + 2;
        const std::size_t close = match(open);
        for (std::size_t k = open + 1; k < close; ++k)
          if (ident(k) && (is(k + 1, ";") || is(k + 1, ",") || is(k + 1, "[") || is(k + 1, ":")))
            fields_.insert(t_[k].text);
      }
    }
  }

  void check_features() const {
    for (std::size_t i = 0; i < t_.size(); ++i) {
      if (!ident(i) || !active_[i]) continue;  // `#ifdef cl_khr_subgroups` blocks are fine
      const std::string feature = unsupported_feature(t_[i].text);
      if (!feature.empty())
        fail(i, feature + " is not supported by the CUDA module's OpenCL C prelude");
    }
  }

  // `#pragma OPENCL EXTENSION ...` and `#pragma OPENCL FP_CONTRACT ...`: NVRTC would warn on
  // each; the prelude already enables what the extensions name.
  void drop_opencl_pragmas() {
    for (std::size_t i = 0; i + 2 < t_.size(); ++i) {
      if (!(t_[i].starts_directive && is(i + 1, "pragma") && is(i + 2, "OPENCL"))) continue;
      for (std::size_t k = i;
           k < t_.size() && t_[k].in_directive && (k == i || !t_[k].starts_directive); ++k)
        out_[k] = k == i ? "//" : "";
    }
  }

  // `global float* p` -> `__global float* p` (see prelude_types.cuh for why).
  void spell_qualifiers() {
    static const std::set<std::string> plain = {"global",    "local",      "constant",  "private",
                                                "read_only", "write_only", "read_write"};
    for (std::size_t i = 0; i < t_.size(); ++i)
      if (ident(i) && plain.count(t_[i].text) && !(i > 0 && (is(i - 1, ".") || is(i - 1, "->"))))
        out_[i] = "__" + t_[i].text;
  }

  // A declaration's tokens from i up to the first of ; = ) , { (brackets skipped): a pointer
  // declaration when a '*' appears there.
  bool declares_pointer(std::size_t i) const {
    for (std::size_t k = i + 1; k < t_.size(); ++k) {
      const std::string& s = t_[k].text;
      if (s == "*") return true;
      if (s == ";" || s == "=" || s == ")" || s == "," || s == "{" || s == "(") return false;
      if (s == "[") k = match(k);
    }
    return false;
  }

  // `__local float tile[64];` -> `__shared__ float tile[64];` (a __local pointer is a plain
  // pointer: CUDA's are generic). `__constant float k[] = {...};` at program scope ->
  // `__constant__ const float k[] = ...`. Kernel parameters are left to rewrite_kernels.
  void rewrite_address_spaces() {
    int depth = 0, parens = 0;
    for (std::size_t i = 0; i < t_.size(); ++i) {
      const std::string& s = out_[i];
      if (s == "{") ++depth;
      if (s == "}") --depth;
      if (s == "(") ++parens;
      if (s == ")") --parens;
      if (t_[i].in_directive || parens > 0) continue;
      if (s == "__local" && !declares_pointer(i)) out_[i] = "__shared__";
      if (s == "__constant" && depth == 0 && !declares_pointer(i)) out_[i] = "__constant__ const";
    }
  }

  // `1.5h` (cl_khr_fp16's half literal) -> `((half)1.5f)`: C++ has no such suffix. The float
  // literal is exact for every half, so rounding it to half once gives the literal's value.
  void rewrite_half_literals() {
    for (std::size_t i = 0; i < t_.size(); ++i) {
      const std::string& s = t_[i].text;
      if (t_[i].kind != TokenKind::number || s.size() < 2 || (s.back() != 'h' && s.back() != 'H'))
        continue;
      if (s.find_first_of(".eEpP") == std::string::npos || s.rfind("0x", 0) == 0 ||
          s.rfind("0X", 0) == 0)
        continue;  // not a decimal floating literal: left for NVRTC to refuse
      out_[i] = "((half)" + s.substr(0, s.size() - 1) + "f)";
    }
  }

  // `(float4)(a, b, c, d)` is a vector literal in OpenCL C but a cast of a comma expression
  // in C++: it becomes `float4(a, b, c, d)`. Also when the type is a macro, as long as the
  // parentheses hold a comma (a scalar cast of a comma expression is then a compile error,
  // never a silent change); `(T)(x)` with one value is left a cast, which the vector
  // types' broadcasting constructor serves.
  void rewrite_vector_literals() {
    for (std::size_t i = 0; i + 3 < t_.size(); ++i) {
      if (!(is(i, "(") && ident(i + 1) && is(i + 2, ")") && is(i + 3, "("))) continue;
      if (i > 0) {
        const Token& before = t_[i - 1];
        const bool call_or_index = (before.kind == TokenKind::identifier &&
                                    before.text != "return" && before.text != "case") ||
                                   before.text == ")" || before.text == "]";
        if (call_or_index) continue;
      }
      const std::size_t close = match(i + 3);
      bool comma = false;
      for (std::size_t k = i + 4; k < close; ++k) {
        if (t_[k].text == "(" || t_[k].text == "[" || t_[k].text == "{")
          k = match(k);
        else if (t_[k].text == ",")
          comma = true;
      }
      const bool vector_name = std::regex_match(t_[i + 1].text, vector_type_pattern());
      if (!comma && !vector_name) continue;
      out_[i] = "";
      out_[i + 2] = "";
    }
  }

  // vec_step(float3) names a type, which the prelude's decltype-based macro cannot take.
  void rewrite_vec_step_of_types() {
    static const std::regex type(
        "(u?char|u?short|u?int|u?long|float|double|half|bool)(2|3|4|8|16)?");
    for (std::size_t i = 0; i + 3 < t_.size(); ++i)
      if (is(i, "vec_step") && is(i + 1, "(") && ident(i + 2) && is(i + 3, ")") &&
          std::regex_match(t_[i + 2].text, type)) {
        out_[i] = "xcl_vec_step<" + t_[i + 2].text + ">::value";
        out_[i + 1] = out_[i + 2] = out_[i + 3] = "";
      }
  }

  void rewrite_swizzles() {
    for (std::size_t i = 0; i + 1 < t_.size(); ++i) {
      if (!(is(i, ".") || is(i, "->")) || !ident(i + 1)) continue;
      const std::string& name = t_[i + 1].text;
      if (name.size() == 1 && name[0] >= 'w' && name[0] <= 'z') continue;  // real members
      // At most "s" and 16 lanes: std::regex's matcher recurses per character, and a longer
      // name (no swizzle anyway) overflowed the stack.
      if (name.size() > 17 || fields_.count(name) || !std::regex_match(name, swizzle_pattern()))
        continue;
      out_[i + 1] = swizzle_call(name);
    }
  }

  // `__kernel void f(__global float* x, __local float* tmp)` ->
  // `extern "C" __global__ void f(float* x, unsigned int xcl_local_tmp,
  //      xgpu_cuda_launch_info xcl_launch_param) { xcl_enter(xcl_launch_param);
  //      __local float* tmp = (__local float*)(xcl_dynamic_local + xcl_local_tmp); ...`
  void rewrite_kernels() {
    for (std::size_t i = 0; i < t_.size(); ++i) {
      if (!(is(i, "__kernel") || is(i, "kernel")) || t_[i].kind != TokenKind::identifier) continue;
      out_[i] = "extern \"C\" __global__";
      std::size_t k = i + 1;
      std::string launch_bounds;
      while (k < t_.size() && !is(k, "(")) {
        if (is(k, "__attribute__") && is(k + 1, "(")) {
          const std::size_t close = match(k + 1);
          launch_bounds += attribute(k, close);
          for (std::size_t a = k; a <= close; ++a) out_[a] = "";
          k = close + 1;
          continue;
        }
        ++k;
      }
      if (k >= t_.size()) fail(i, "a kernel without a parameter list");
      const std::size_t name = k - 1;
      // CUDA wants __launch_bounds__ after the return type, right before the name.
      if (!launch_bounds.empty()) out_[name] = launch_bounds + " " + out_[name];
      const bool pasted = name > 0 && is(name - 1, "##");
      if (!ident(name)) fail(i, "a kernel without a name");
      const std::size_t close = match(k);
      KernelSignature signature;
      signature.name = t_[name].text;
      std::string prologue = "xcl_enter(xcl_launch_param);";
      // Parameters, split at top-level commas.
      std::vector<std::vector<std::size_t>> params(1);
      for (std::size_t p = k + 1; p < close; ++p) {
        if (is(p, "(") || is(p, "[")) {
          const std::size_t end = match(p);
          for (std::size_t q = p; q <= end; ++q) params.back().push_back(q);
          p = end;
        } else if (is(p, ",")) {
          params.emplace_back();
        } else {
          params.back().push_back(p);
        }
      }
      if (params.size() == 1 &&
          (params[0].empty() || (params[0].size() == 1 && is(params[0][0], "void")))) {
        params.clear();
        for (std::size_t p = k + 1; p < close; ++p) out_[p] = "";
      }
      for (const auto& indices : params) {
        std::vector<const Token*> tokens;
        for (std::size_t p : indices) tokens.push_back(&t_[p]);
        KernelParam param = parse_param(tokens, macros_, file_, t_[k].line);
        if (param.space == AddressSpace::local_ && param.is_pointer) {
          // The pointer becomes a byte offset into the dynamic shared memory (contract, 1).
          std::string type;
          for (std::size_t p : indices)
            if (t_[p].text != param.name) type += out_[p] + " ";
          for (std::size_t p : indices) out_[p] = "";
          out_[indices.front()] = "unsigned int xcl_local_" + param.name;
          prologue += " " + type + param.name + " = (" + type + ")(xcl_dynamic_local + xcl_local_" +
                      param.name + ");";
        }
        signature.params.push_back(std::move(param));
      }
      out_[close] =
          std::string(params.empty() ? "" : ", ") + "xgpu_cuda_launch_info xcl_launch_param)";
      if (!is(close + 1, "{")) fail(close, "a kernel declared without a body");
      out_[close + 1] = "{ " + prologue;
      // A kernel inside a #define gets its signature where the macro is used (below).
      if (!pasted && !t_[i].in_directive && active_[i])
        kernels_.push_back({i, std::move(signature)});
      i = close + 1;
    }
  }

  // Kernels made by a function-like macro (`#define OPS(T) kernel void ops_##T(global T* a)`)
  // get their signatures where the macro is used outside a directive: one level of
  // expansion, parameters replaced and `##` pasted, is enough for the kernels seen so far.
  // A use inside another macro, or a kernel behind two macros, gets no signature.
  void signatures_from_macro_uses() {
    struct Macro {
      std::vector<std::string> params;
      std::vector<const Token*> body;
    };
    std::map<std::string, Macro> macros;
    for (std::size_t i = 0; i + 3 < t_.size(); ++i) {
      if (!(t_[i].starts_directive && is(i + 1, "define") && ident(i + 2) && is(i + 3, "(") &&
            t_[i + 3].space_before.empty()))
        continue;
      Macro macro;
      std::size_t k = i + 4;
      for (; k < t_.size() && !is(k, ")"); ++k)
        if (ident(k)) macro.params.push_back(t_[k].text);
      bool has_kernel = false;
      for (++k; k < t_.size() && t_[k].in_directive && !t_[k].starts_directive; ++k) {
        macro.body.push_back(&t_[k]);
        has_kernel = has_kernel || is(k, "kernel") || is(k, "__kernel");
      }
      if (has_kernel) macros[t_[i + 2].text] = std::move(macro);
    }
    if (macros.empty()) return;
    for (std::size_t i = 0; i + 1 < t_.size(); ++i) {
      if (t_[i].in_directive || !active_[i] || !ident(i) || !is(i + 1, "(")) continue;
      auto found = macros.find(t_[i].text);
      if (found == macros.end()) continue;
      const std::size_t close = match(i + 1);
      std::vector<std::vector<const Token*>> args(1);
      for (std::size_t k = i + 2; k < close; ++k) {
        if (is(k, "(")) {
          const std::size_t end = match(k);
          for (std::size_t q = k; q <= end; ++q) args.back().push_back(&t_[q]);
          k = end;
        } else if (is(k, ",")) {
          args.emplace_back();
        } else {
          args.back().push_back(&t_[k]);
        }
      }
      std::vector<Token> expanded =
          expand(found->second.params, found->second.body, args, t_[i].line);
      for (KernelSignature& signature : signatures_in(expanded))
        kernels_.push_back({i, std::move(signature)});
      i = close;
    }
  }

  static std::vector<Token> expand(const std::vector<std::string>& params,
                                   const std::vector<const Token*>& body,
                                   const std::vector<std::vector<const Token*>>& args, int line) {
    std::vector<Token> out;
    bool paste = false;
    for (const Token* token : body) {
      if (token->text == "##") {
        paste = true;
        continue;
      }
      std::vector<Token> piece;
      const auto param = std::find(params.begin(), params.end(), token->text);
      if (token->kind == TokenKind::identifier && param != params.end()) {
        const std::size_t n = static_cast<std::size_t>(param - params.begin());
        if (n < args.size())
          for (const Token* a : args[n]) piece.push_back(*a);
      } else {
        piece.push_back(*token);
      }
      for (Token& p : piece) p.line = line;
      if (paste && !out.empty() && !piece.empty()) {
        out.back().text += piece.front().text;
        piece.erase(piece.begin());
      }
      paste = false;
      for (Token& p : piece) out.push_back(std::move(p));
    }
    return out;
  }

  // The kernel signatures in a token list (a macro's expansion).
  std::vector<KernelSignature> signatures_in(const std::vector<Token>& tokens) const {
    std::vector<KernelSignature> found;
    auto closing = [&tokens](std::size_t at) {
      int depth = 0;
      for (std::size_t k = at; k < tokens.size(); ++k) {
        if (tokens[k].text == "(") ++depth;
        if (tokens[k].text == ")" && --depth == 0) return k;
      }
      return tokens.size();
    };
    for (std::size_t i = 0; i < tokens.size(); ++i) {
      if (tokens[i].text != "kernel" && tokens[i].text != "__kernel") continue;
      std::size_t k = i + 1;
      while (k < tokens.size() && tokens[k].text != "(") {
        if (tokens[k].text == "__attribute__" && k + 1 < tokens.size()) k = closing(k + 1);
        ++k;
      }
      if (k >= tokens.size() || tokens[k - 1].kind != TokenKind::identifier) continue;
      const std::size_t close = closing(k);
      if (close >= tokens.size()) continue;
      KernelSignature signature;
      signature.name = tokens[k - 1].text;
      std::vector<const Token*> param;
      int depth = 0;
      for (std::size_t p = k + 1; p <= close; ++p) {
        const std::string& text = tokens[p].text;
        if (text == "(" || text == "[") ++depth;
        if (text == ")" || text == "]") --depth;
        if ((text == "," && depth == 0) || p == close) {
          if (!(param.empty() || (param.size() == 1 && param[0]->text == "void")))
            signature.params.push_back(parse_param(param, macros_, file_, tokens[k].line));
          param.clear();
        } else {
          param.push_back(&tokens[p]);
        }
      }
      found.push_back(std::move(signature));
      i = close;
    }
    return found;
  }

  // reqd_work_group_size(x, y, z) -> __launch_bounds__(x*y*z); other attributes (hints such
  // as vec_type_hint, work_group_size_hint) are dropped: they change no result.
  std::string attribute(std::size_t begin, std::size_t end) const {
    for (std::size_t a = begin; a < end; ++a) {
      if (!is(a, "reqd_work_group_size") || !is(a + 1, "(")) continue;
      std::string product = "(";
      const std::size_t close = match(a + 1);
      for (std::size_t b = a + 2; b < close; ++b)
        product += is(b, ",") ? std::string(")*(") : t_[b].text + " ";
      return "__launch_bounds__(" + product + "))";
    }
    return {};
  }

  Lexed lexed_;
  std::vector<Token>& t_;
  std::string file_;
  std::vector<std::string> out_;
  MacroTable macros_;
  std::string option_defines_;  // the -D and -U options, as lines
  std::vector<bool> active_;
  std::set<std::string> fields_;
  std::vector<std::pair<std::size_t, KernelSignature>> kernels_;  // (token index, signature)
};

}  // namespace

Translation translate_opencl_c(std::string_view source, std::string_view file_name,
                               std::string_view opencl_options, bool half_arithmetic) {
  return Translator(source, file_name, opencl_options, half_arithmetic).run();
}

}  // namespace xgpu_cuda
