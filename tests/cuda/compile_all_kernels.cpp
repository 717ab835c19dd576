// cuda.nvrtc_kernels: every OpenCL C program of kernels/ (for each element type) and of the
// conformance suite (as the suite builds them, recorded by capture_cl_sources.c) goes
// through the CUDA module's translation, NVRTC for each architecture asked, and ptxas.
// Exit 0: all compiled and assembled (or were refused for a feature named in the expected
// refusals file); 1: something failed; 77 (the test's SKIP_RETURN_CODE): NVRTC or ptxas
// is absent or too old here, with the reason printed.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "nvrtc_library.hpp"
#include "opencl_to_cuda.hpp"

namespace fs = std::filesystem;

namespace {

constexpr int kSkip = 77;

struct Program {
  std::string name;          // for messages: "kernels/sort.cl -DXGPU_T=int" or "conform/00012.cl"
  std::string source;        // includes expanded
  std::string options;       // OpenCL build options
  bool relocatable = false;  // clCompileProgram'd, to be linked: may call other programs
  bool recorded = false;     // built by the conformance suite for this machine's device
};

// "// xgpu-ptx-expect: KERNEL INSTRUCTION..." in a source: each instruction must appear in
// that kernel's own PTX (its .entry up to the next one). It shows the prelude emitted the
// native instruction asked for (half arithmetic as add.rn.f16, ...), not just something that
// compiles.
struct PtxExpectation {
  std::string kernel;
  std::vector<std::string> instructions;
};

std::vector<PtxExpectation> ptx_expectations(const std::string& source) {
  std::vector<PtxExpectation> found;
  const std::string marker = "// xgpu-ptx-expect:";
  for (std::size_t at = source.find(marker); at != std::string::npos;
       at = source.find(marker, at + 1)) {
    const std::size_t end = source.find('\n', at);
    std::istringstream words(source.substr(at + marker.size(), end - at - marker.size()));
    PtxExpectation expectation;
    words >> expectation.kernel;
    for (std::string word; words >> word;) expectation.instructions.push_back(word);
    found.push_back(expectation);
  }
  return found;
}

// What of `expectations` the PTX lacks, or empty.
std::string missing_instructions(const std::string& ptx,
                                 const std::vector<PtxExpectation>& expectations) {
  std::string missing;
  for (const PtxExpectation& e : expectations) {
    const std::size_t entry = ptx.find(".entry " + e.kernel + "(");
    if (entry == std::string::npos) {
      missing += " " + e.kernel + " (no entry)";
      continue;
    }
    const std::string body = ptx.substr(entry, ptx.find(".entry ", entry + 1) - entry);
    for (const std::string& instruction : e.instructions)
      if (body.find(instruction) == std::string::npos)
        missing += " " + e.kernel + ":" + instruction;
  }
  return missing;
}

std::string read_file(const fs::path& path) {
  std::ifstream file(path, std::ios::binary);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

// `#include "name"` from `dir`, each file once (the core does this for real builds).
std::string expand_includes(const std::string& text, const fs::path& dir,
                            std::set<std::string>& seen) {
  std::istringstream lines(text);
  std::string line, out;
  while (std::getline(lines, line)) {
    const std::size_t hash = line.find_first_not_of(" \t");
    if (hash != std::string::npos && line.compare(hash, 8, "#include") == 0) {
      const std::size_t open = line.find('"'), close = line.rfind('"');
      if (open != std::string::npos && close > open) {
        const std::string name = line.substr(open + 1, close - open - 1);
        if (seen.insert(name).second && fs::exists(dir / name))
          out += expand_includes(read_file(dir / name), dir, seen);
        out += "\n";
        continue;
      }
    }
    out += line + "\n";
  }
  return out;
}

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(text);
  while (std::getline(in, part, separator))
    if (!part.empty()) parts.push_back(part);
  return parts;
}

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

// ptxas: XGPU_PTXAS, then PATH, then the toolkit's usual place.
std::string find_ptxas() {
  if (const char* set = std::getenv("XGPU_PTXAS"); set != nullptr && *set != '\0')
    return fs::exists(set) ? set : std::string();
  if (const char* path = std::getenv("PATH"))
    for (const std::string& dir : split(path, ':'))
      if (fs::exists(fs::path(dir) / "ptxas")) return (fs::path(dir) / "ptxas").string();
  return fs::exists("/usr/local/cuda/bin/ptxas") ? "/usr/local/cuda/bin/ptxas" : std::string();
}

// Runs ptxas on `ptx`; empty when it assembled, else its output.
std::string assemble(const std::string& ptxas, const std::string& ptx, int arch,
                     const fs::path& scratch, bool relocatable) {
  const fs::path input = scratch / "program.ptx", log = scratch / "ptxas.log";
  std::ofstream(input, std::ios::binary) << ptx;
  const std::string command = "'" + ptxas + "' " + (relocatable ? "-c " : "") + "-arch=sm_" +
                              std::to_string(arch) + " '" + input.string() + "' -o /dev/null > '" +
                              log.string() + "' 2>&1";
  if (std::system(command.c_str()) == 0) return {};
  const std::string output = read_file(log);
  return output.empty() ? "ptxas failed" : output;
}

struct Options {
  std::vector<int> archs = {80, 90};
  std::vector<fs::path> kernel_dirs, captured_dirs, sources;
  // C++ files whose raw-string OpenCL C sources using cl_khr_fp16 are compiled, with options:
  // the half checks of the conformance suite, `xgpu bench` and the probe, which PoCL (no
  // cl_khr_fp16) never builds, so cuda.capture_conform cannot record them.
  std::vector<std::pair<fs::path, std::string>> embedded;
  std::vector<std::string> types = {"float", "double", "int", "uint", "half"};
  std::map<std::string, std::vector<std::string>> file_types;  // gemm.cl=float,double,half
  fs::path expected_refusals;
  bool verbose = false;
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::cerr << a << " needs a value\n";
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--arch") {
      o.archs.clear();
      for (const std::string& s : split(value(), ',')) o.archs.push_back(std::stoi(s));
    } else if (a == "--kernels") {
      o.kernel_dirs.push_back(value());
    } else if (a == "--captured") {
      o.captured_dirs.push_back(value());
    } else if (a == "--source") {
      o.sources.push_back(value());
    } else if (a == "--embedded") {
      const std::string v = value();
      const std::size_t eq = v.find('=');
      o.embedded.emplace_back(v.substr(0, eq), eq == std::string::npos ? "" : v.substr(eq + 1));
    } else if (a == "--types") {
      const std::string v = value();
      const std::size_t eq = v.find('=');
      o.file_types[v.substr(0, eq)] = split(v.substr(eq + 1), ',');
    } else if (a == "--expect-refusals") {
      o.expected_refusals = value();
    } else if (a == "-v") {
      o.verbose = true;
    } else {
      std::cerr << "unknown argument " << a << "\n";
      std::exit(2);
    }
  }
  return o;
}

int left_out = 0;               // recorded programs whose OpenCL build failed (or never happened)
bool embedded_missing = false;  // an --embedded file without a cl_khr_fp16 source

std::vector<Program> gather(const Options& o) {
  std::vector<Program> programs;
  for (const fs::path& dir : o.kernel_dirs) {
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(dir))
      if (entry.path().extension() == ".cl") files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    for (const fs::path& file : files) {
      std::set<std::string> seen;
      const std::string source = expand_includes(read_file(file), dir, seen);
      auto listed = o.file_types.find(file.filename().string());
      for (const std::string& type : listed != o.file_types.end() ? listed->second : o.types) {
        const std::string options = "-DXGPU_T=" + type + " -DXGPU_T_" + upper(type);
        programs.push_back(
            {"kernels/" + file.filename().string() + " " + options, source, options});
      }
    }
  }
  for (const fs::path& dir : o.captured_dirs) {
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(dir))
      if (entry.path().extension() == ".cl") files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    for (const fs::path& file : files) {
      fs::path options = file, status = file;
      options.replace_extension(".options");
      status.replace_extension(".status");
      // Programs the suite builds to see them fail (a syntax error, a missing header), and
      // those built with header programs: not the CUDA module's business here.
      if (!fs::exists(status) || read_file(status) != "0") {
        ++left_out;
        continue;
      }
      fs::path mode = file;
      mode.replace_extension(".mode");
      programs.push_back({file.string(), read_file(file),
                          fs::exists(options) ? read_file(options) : "", fs::exists(mode), true});
    }
  }
  for (const fs::path& file : o.sources) programs.push_back({file.string(), read_file(file), ""});
  for (const auto& [file, options] : o.embedded) {
    const std::string text = read_file(file);
    int found = 0;
    for (std::size_t open = text.find("R\"("); open != std::string::npos;
         open = text.find("R\"(", open + 3)) {
      const std::size_t close = text.find(")\"", open + 3);
      if (close == std::string::npos) break;
      const std::string source = text.substr(open + 3, close - open - 3);
      if (source.find("cl_khr_fp16") == std::string::npos) continue;
      programs.push_back(
          {file.filename().string() + " source " + std::to_string(++found) + " " + options, source,
           options});
    }
    if (found == 0) {
      std::cout << "FAIL: no OpenCL C source using cl_khr_fp16 in " << file << "\n";
      ++left_out;
      embedded_missing = true;
    }
  }
  return programs;
}

struct Outcome {
  enum Kind { compiled, refused, failed } kind = failed;
  std::string text;  // what to print
  std::size_t kernels = 0;
};

// Translates, compiles for each architecture and assembles one program.
Outcome compile_one(const Program& program, const Options& options,
                    const xgpu_cuda::NvrtcLibrary& nvrtc, const std::string& ptxas,
                    const std::vector<std::string>& allowed_refusals, const fs::path& scratch) {
  Outcome outcome;
  std::ostringstream out;
  xgpu_cuda::Translation translation;
  try {
    translation = xgpu_cuda::translate_opencl_c(program.source, "program.cl", program.options);
  } catch (const xgpu_cuda::TranslationError& e) {
    bool expected = false;
    for (const std::string& allowed : allowed_refusals)
      expected = expected || e.message().find(allowed) != std::string::npos;
    out << (expected ? "refused (expected): " : "FAIL refused: ") << program.name << ": "
        << e.what() << "\n";
    outcome.kind = expected ? Outcome::refused : Outcome::failed;
    outcome.text = out.str();
    return outcome;
  }
  for (int arch : options.archs) {
    std::vector<std::string> nvrtc_options;
    try {
      nvrtc_options = xgpu_cuda::nvrtc_options(program.options, arch / 10, arch % 10);
      if (program.relocatable) nvrtc_options.push_back("-rdc=true");
    } catch (const xgpu_cuda::TranslationError& e) {
      out << "FAIL options: " << program.name << ": " << e.what() << "\n";
      outcome.text = out.str();
      return outcome;
    }
    const xgpu_cuda::PtxResult ptx =
        xgpu_cuda::compile_to_ptx(nvrtc, translation.cuda_source, "program.cu", nvrtc_options);
    if (!ptx.ok) {
      out << "FAIL nvrtc sm_" << arch << ": " << program.name << ": " << ptx.error << "\n"
          << ptx.log.substr(0, 4000) << "\n";
      if (options.verbose) std::ofstream("failed.cu") << translation.cuda_source;
      outcome.text = out.str();
      return outcome;
    }
    // Each kernel must be an entry point of the PTX (a __global__ function), not a device
    // function: a prelude macro that emptied CUDA's own __global__ once made them so.
    std::string missing;
    for (const xgpu_cuda::KernelSignature& k : translation.kernels)
      if (ptx.ptx.find(".entry " + k.name + "(") == std::string::npos) missing += " " + k.name;
    if (!missing.empty()) {
      out << "FAIL sm_" << arch << ": " << program.name << ": no PTX entry point for" << missing
          << "\n";
      outcome.text = out.str();
      return outcome;
    }
    const std::string unexpected = missing_instructions(ptx.ptx, ptx_expectations(program.source));
    if (!unexpected.empty()) {
      out << "FAIL sm_" << arch << ": " << program.name << ": PTX lacks" << unexpected << "\n";
      outcome.text = out.str();
      return outcome;
    }
    const std::string assembled = assemble(ptxas, ptx.ptx, arch, scratch, program.relocatable);
    // A recorded program was shaped for the recording device: the library sizes its tiles
    // from that device's local memory (GEMM's on an AVX-512 CPU: 64 KiB). A CUDA device
    // reports 48 KiB, the static shared memory a kernel may use, so the library never builds
    // that shape there (a user's kernel of that size fails the CUDA module's build the same way).
    // kernels/ at its GPU defaults is held to the limit.
    if (program.recorded && assembled.find("uses too much shared data") != std::string::npos) {
      out << "refused (expected, the recording device's shape exceeds CUDA's 48 KiB of shared "
             "memory) sm_"
          << arch << ": " << program.name << ": " << assembled << "\n";
      outcome.kind = Outcome::refused;
      outcome.text = out.str();
      return outcome;
    }
    if (!assembled.empty()) {
      out << "FAIL ptxas sm_" << arch << ": " << program.name << ": " << assembled << "\n";
      outcome.text = out.str();
      return outcome;
    }
  }
  if (options.verbose) out << "ok: " << program.name << "\n";
  outcome.kind = Outcome::compiled;
  outcome.kernels = translation.kernels.size();
  outcome.text = out.str();
  return outcome;
}

}  // namespace

int main(int argc, char** argv) {
  const Options options = parse(argc, argv);
  const xgpu_cuda::NvrtcLibrary& nvrtc = xgpu_cuda::NvrtcLibrary::get();
  if (!nvrtc.loaded) {
    std::cout << "SKIP: no NVRTC on this machine (" << nvrtc.why_not << ")\n";
    return kSkip;
  }
  const std::string ptxas = find_ptxas();
  if (ptxas.empty()) {
    std::cout << "SKIP: no ptxas (XGPU_PTXAS, PATH, /usr/local/cuda/bin)\n";
    return kSkip;
  }
  const std::vector<int> supported = nvrtc.supported_archs();
  for (int arch : options.archs) {
    if (!supported.empty() &&
        std::find(supported.begin(), supported.end(), arch) == supported.end()) {
      std::cout << "SKIP: NVRTC " << nvrtc.version_text() << " (" << nvrtc.path
                << ") cannot target sm_" << arch << "\n";
      return kSkip;
    }
  }
  std::cout << "NVRTC " << nvrtc.version_text() << " (" << nvrtc.path << "), ptxas " << ptxas
            << "\n";

  std::vector<std::string> allowed_refusals;
  if (!options.expected_refusals.empty())
    for (const std::string& line : split(read_file(options.expected_refusals), '\n'))
      if (line[0] != '#') allowed_refusals.push_back(line);

  const std::vector<Program> programs = gather(options);
  if (programs.empty()) {
    std::cout << "FAIL: no program to compile (check the --kernels / --captured folders)\n";
    return 1;
  }
  // Programs are compiled on every core (NVRTC compiles separate programs concurrently);
  // what each printed is shown in program order.
  const unsigned workers = std::max(2u, std::thread::hardware_concurrency());
  std::vector<Outcome> outcomes(programs.size());
  std::atomic<std::size_t> next{0};
  std::vector<std::thread> threads;
  const fs::path scratch = fs::temp_directory_path() / ("xgpu-nvrtc-" + std::to_string(::getpid()));
  for (unsigned w = 0; w < workers; ++w) {
    threads.emplace_back([&, w] {
      const fs::path mine = scratch / std::to_string(w);
      fs::create_directories(mine);
      for (std::size_t i; (i = next++) < programs.size();)
        outcomes[i] = compile_one(programs[i], options, nvrtc, ptxas, allowed_refusals, mine);
    });
  }
  for (std::thread& t : threads) t.join();
  int failed = 0, refused = 0, compiled = 0;
  std::size_t kernels = 0;
  for (const Outcome& o : outcomes) {
    std::cout << o.text;
    failed += o.kind == Outcome::failed;
    refused += o.kind == Outcome::refused;
    compiled += o.kind == Outcome::compiled;
    kernels += o.kernels;
  }
  fs::remove_all(scratch);
  std::cout << programs.size() << " programs: " << compiled << " compiled for";
  for (int arch : options.archs) std::cout << " sm_" << arch;
  std::cout
      << " and assembled (" << kernels << " kernel signatures), " << refused
      << " refused as expected, " << failed << " failed; " << left_out
      << " recorded programs left out (their OpenCL build failed too, or used header programs)\n";
  return failed == 0 && !embedded_missing ? 0 : 1;
}
