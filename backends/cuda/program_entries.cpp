// OpenCL C to PTX: the translation (translate/opencl_to_cuda.hpp) rewrites the source and
// reads the kernels' signatures, NVRTC (translate/nvrtc_library.hpp) compiles it for the
// device's compute capability. The only file of the module that speaks to the translation;
// it also gives the launch its contract (launch_contract.hpp).
#include <algorithm>
#include <cstring>
#include <regex>
#include <sstream>

#include "errors.hpp"
#include "launch_contract.hpp"
#include "nvrtc_library.hpp"
#include "opencl_to_cuda.hpp"
#include "program_build.hpp"
#include "xgpu/common/log.hpp"

namespace xgpu::backend_cuda {
namespace {

// The name NVRTC gives the source; #line markers from the core name the real files.
constexpr const char* kProgramName = "program.cl";

uint32_t address_space_of(xgpu_cuda::AddressSpace space) {
  switch (space) {
    case xgpu_cuda::AddressSpace::global_:
      return XGPU_ADDRESS_GLOBAL;
    case xgpu_cuda::AddressSpace::local_:
      return XGPU_ADDRESS_LOCAL;
    case xgpu_cuda::AddressSpace::constant_:
      return XGPU_ADDRESS_CONSTANT;
    case xgpu_cuda::AddressSpace::private_:
      break;
  }
  return XGPU_ADDRESS_PRIVATE;
}

// The type as OpenCL's CL_KERNEL_ARG_TYPE_NAME gives it, which the core's type check reads:
// no qualifiers or address spaces ("const __global float*" -> "float*"), OpenCL's short names
// for unsigned types.
std::string bare_type(const std::string& written) {
  static const char* const kDropped[] = {"const",       "volatile",     "restrict",  "__restrict",
                                         "__global",    "global",       "__local",   "local",
                                         "__constant",  "constant",     "__private", "private",
                                         "__read_only", "__write_only", "read_only", "write_only"};
  std::string spaced = written;
  // Separate '*' so it is a word of its own.
  for (size_t at = 0; (at = spaced.find('*', at)) != std::string::npos; at += 3)
    spaced.replace(at, 1, " * ");
  std::istringstream words(spaced);
  std::string word, base, stars;
  while (words >> word) {
    if (word == "*") {
      stars += '*';
    } else if (std::find(std::begin(kDropped), std::end(kDropped), word) == std::end(kDropped)) {
      base += (base.empty() ? "" : " ") + word;
    }
  }
  static const std::pair<const char*, const char*> kShort[] = {{"unsigned char", "uchar"},
                                                               {"unsigned short", "ushort"},
                                                               {"unsigned int", "uint"},
                                                               {"unsigned long", "ulong"},
                                                               {"unsigned", "uint"}};
  for (const auto& [longer, shorter] : kShort) {
    if (base == longer) base = shorter;
  }
  return base + stars;
}

KernelInfo kernel_info_of(const xgpu_cuda::KernelSignature& signature) {
  KernelInfo kernel{signature.name, {}};
  for (const xgpu_cuda::KernelParam& param : signature.params) {
    ParamInfo info;
    info.name = param.name;
    info.type = bare_type(param.type);
    info.address_space = address_space_of(param.space);
    info.is_pointer = param.is_pointer;
    info.value_size = param.value_size;
    kernel.params.push_back(info);
  }
  return kernel;
}

// NVRTC writes "file(12): error: ..."; xgpu's logs (and the core's first-error line) use
// "file:12: error: ...", as OpenCL compilers do.
std::string with_colon_locations(const std::string& log) {
  static const std::regex kLocation(R"(^([^\s(][^(\n]*)\((\d+)\): )", std::regex::multiline);
  return std::regex_replace(log, kLocation, "$1:$2: ");
}

std::string architecture(const DeviceRecord& device) {
  return "sm_" + std::to_string(device.cc_major) + std::to_string(device.cc_minor);
}

// An NVRTC that cannot target the GPU says so only as an "invalid option" in its log: name
// the problem before compiling. An NVRTC that cannot list its targets (before 11.2) is tried.
void require_architecture(const xgpu_cuda::NvrtcLibrary& nvrtc, const DeviceRecord& device,
                          Program& program) {
  const std::vector<int> supported = nvrtc.supported_archs();
  const int wanted = device.cc_major * 10 + device.cc_minor;
  if (supported.empty() || std::find(supported.begin(), supported.end(), wanted) != supported.end())
    return;
  const std::string text = "NVRTC " + nvrtc.version_text() + " (" + nvrtc.path +
                           ") cannot compile for " + architecture(device) + " (newest: sm_" +
                           std::to_string(*std::max_element(supported.begin(), supported.end())) +
                           "): install a newer NVRTC or point XGPU_NVRTC_LIBRARY at one";
  program.build_log = text;
  fail(XGPU_STATUS_UNSUPPORTED, text);
}

}  // namespace

void compile_source(Program& program, const DeviceRecord& device, const std::string& options) {
  const xgpu_cuda::NvrtcLibrary& nvrtc = xgpu_cuda::NvrtcLibrary::get();
  if (!nvrtc.loaded) {
    program.build_log = "no NVRTC: " + nvrtc.why_not;
    fail(XGPU_STATUS_UNSUPPORTED, program.build_log);
  }
  require_architecture(nvrtc, device, program);
  xgpu_cuda::Translation translation;
  std::vector<std::string> nvrtc_flags;
  try {
    translation = xgpu_cuda::translate_opencl_c(program.source, kProgramName, options,
                                                device.cc_major * 10 + device.cc_minor >= 53);
    nvrtc_flags = xgpu_cuda::nvrtc_options(options, device.cc_major, device.cc_minor);
  } catch (const xgpu_cuda::TranslationError& error) {
    // "file:line: feature ...": the source is refused, as a compiler refuses it (a native
    // status, which the core reports as a failed build with this log).
    program.build_log = error.what();
    fail(CUDA_ERROR_INVALID_SOURCE, std::string("translation failed: ") + error.what());
  }
  const xgpu_cuda::PtxResult result =
      xgpu_cuda::compile_to_ptx(nvrtc, translation.cuda_source, kProgramName, nvrtc_flags);
  program.build_log = with_colon_locations(result.log);
  if (!result.ok) {
    if (program.build_log.empty()) program.build_log = result.error;
    fail(CUDA_ERROR_INVALID_SOURCE, result.error);
  }
  program.ptx = result.ptx;
  program.kernels.clear();
  for (const xgpu_cuda::KernelSignature& signature : translation.kernels)
    program.kernels.push_back(kernel_info_of(signature));
  XGPU_LOG_DEBUGF("cuda: NVRTC %s made %zu bytes of PTX for %s", nvrtc.version_text().c_str(),
                  program.ptx.size(), architecture(device).c_str());
}

std::string translation_fingerprint() {
  return xgpu_cuda::translation_fingerprint(xgpu_cuda::NvrtcLibrary::get());
}

size_t local_argument_alignment() { return xgpu_cuda::kLocalArgAlignment; }

std::vector<unsigned char> launch_information(uint32_t dimensions, const size_t* global_offset,
                                              const size_t* global_size) {
  xgpu_cuda::LaunchInfo info{};
  for (uint32_t d = 0; d < 3; ++d) {
    info.global_offset[d] = d < dimensions && global_offset != nullptr ? global_offset[d] : 0;
    info.global_size[d] = d < dimensions ? global_size[d] : 1;
  }
  info.work_dim = dimensions;
  const auto* bytes = reinterpret_cast<const unsigned char*>(&info);
  return std::vector<unsigned char>(bytes, bytes + sizeof(info));
}

}  // namespace xgpu::backend_cuda
