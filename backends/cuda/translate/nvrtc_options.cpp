// OpenCL build options to NVRTC options. OpenCL's default is full accuracy, and so is
// NVRTC's; only -cl-fast-relaxed-math (and -cl-unsafe-math-optimizations, which it implies)
// turns on --use_fast_math, so a user never gets fast math without asking for it.
#include <map>

#include "opencl_to_cuda.hpp"

namespace xgpu_cuda {
namespace {

std::vector<std::string> split_words(std::string_view text) {
  std::vector<std::string> words;
  std::string word;
  char quote = 0;
  for (char c : text) {
    if (quote != 0) {
      if (c == quote)
        quote = 0;
      else
        word += c;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == ' ' || c == '\t' || c == '\n') {
      if (!word.empty()) words.push_back(word), word.clear();
    } else {
      word += c;
    }
  }
  if (!word.empty()) words.push_back(word);
  return words;
}

// What each accepted -cl-* option becomes ("" = dropped), and why.
const std::map<std::string, std::string>& cl_flags() {
  static const std::map<std::string, std::string> flags = {
      // Asked-for speed over accuracy: CUDA's one switch for it.
      {"-cl-fast-relaxed-math", "--use_fast_math"},
      {"-cl-unsafe-math-optimizations", "--use_fast_math"},
      // Contraction into fused multiply-add: NVRTC's default already, and what OpenCL allows.
      {"-cl-mad-enable", "--fmad=true"},
      // Flushing subnormals is allowed, not required, by this option: CUDA's ftz does it.
      {"-cl-denorms-are-zero", "--ftz=true"},
      // Permissions the compiler may ignore: dropped, results stay within OpenCL's bounds.
      {"-cl-no-signed-zeros", ""},
      {"-cl-finite-math-only", ""},
      {"-cl-strict-aliasing", ""},
      {"-cl-uniform-work-group-size", ""},
      {"-cl-no-subgroup-ifp", ""},
      // Argument info is always there: the signature comes from the source.
      {"-cl-kernel-arg-info", ""},
      // NVRTC's optimiser has no off switch worth mapping; debugging info instead is -G.
      {"-cl-opt-disable", ""},
      // Division and sqrt are correctly rounded in CUDA unless fast math is asked for.
      {"-cl-fp32-correctly-rounded-divide-sqrt", "--prec-div=true"},
  };
  return flags;
}

}  // namespace

std::vector<std::string> nvrtc_options(std::string_view opencl_options, int cc_major,
                                       int cc_minor) {
  std::vector<std::string> out = {
      "--gpu-architecture=compute_" + std::to_string(cc_major) + std::to_string(cc_minor),
      "-std=c++17",
      // OpenCL C helper functions carry no __device__: NVRTC takes them as device code.
      "-default-device"};
  const std::vector<std::string> words = split_words(opencl_options);
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i];
    auto takes_value = [&](const char* flag) {
      if (w != flag) return false;
      if (i + 1 >= words.size())
        throw TranslationError("build options", 0, std::string(flag) + " needs a value");
      out.push_back(w + words[++i]);
      return true;
    };
    // -D and -U: the translation writes them into the source after the prelude (see
    // opencl_to_cuda.cpp), so they are skipped here; pass the same options to both.
    if (w == "-D" || w == "-U") {
      if (i + 1 >= words.size()) throw TranslationError("build options", 0, w + " needs a value");
      ++i;
      continue;
    }
    if (w.rfind("-D", 0) == 0 || w.rfind("-U", 0) == 0) continue;
    if (takes_value("-I")) continue;
    if (w.rfind("-I", 0) == 0) {
      out.push_back(w);
      continue;
    }
    if (w == "-w") {
      out.push_back("-w");
      continue;
    }
    // The language version: the prelude gives OpenCL C 1.2 semantics whatever is asked for.
    if (w.rfind("-cl-std=", 0) == 0 || w == "-Werror") continue;
    if (w.rfind("-cl-", 0) == 0) {
      auto found = cl_flags().find(w);
      if (found == cl_flags().end())
        throw TranslationError("build options", 0,
                               "the OpenCL build option " + w + " has no CUDA equivalent");
      if (!found->second.empty()) out.push_back(found->second);
      continue;
    }
    throw TranslationError("build options", 0, "unknown build option " + w);
  }
  return out;
}

}  // namespace xgpu_cuda
