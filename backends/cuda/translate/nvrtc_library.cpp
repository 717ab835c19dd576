#include "nvrtc_library.hpp"

#include "xgpu/common/dynamic_library.hpp"

namespace xgpu_cuda {
namespace {

NvrtcLibrary open_nvrtc() {
  NvrtcLibrary nvrtc;
  // Newest first; the unversioned name last (it exists only with the toolkit installed):
  // the setting's default (settings.def).
  const xgpu::common::LibrarySpec spec =
      xgpu::common::library_spec("NVRTC", xgpu::common::Setting::nvrtc_library);
  xgpu::common::DynamicLibrary library = xgpu::common::DynamicLibrary::open(
      spec, {"nvrtcCreateProgram", "nvrtcCompileProgram", "nvrtcGetPTX"});
  if (!library.loaded()) {
    nvrtc.why_not = library.why_not();
    return nvrtc;
  }
  nvrtc.path = library.path();
  auto bind = [&library](auto& pointer, const char* name) {
    pointer = library.function<std::remove_reference_t<decltype(pointer)>>(name);
    return pointer != nullptr;
  };
  bool all = bind(nvrtc.get_error_string, "nvrtcGetErrorString") &
             bind(nvrtc.version, "nvrtcVersion") &
             bind(nvrtc.create_program, "nvrtcCreateProgram") &
             bind(nvrtc.destroy_program, "nvrtcDestroyProgram") &
             bind(nvrtc.compile_program, "nvrtcCompileProgram") &
             bind(nvrtc.get_ptx_size, "nvrtcGetPTXSize") & bind(nvrtc.get_ptx, "nvrtcGetPTX") &
             bind(nvrtc.get_log_size, "nvrtcGetProgramLogSize") &
             bind(nvrtc.get_log, "nvrtcGetProgramLog");
  bind(nvrtc.get_num_supported_archs, "nvrtcGetNumSupportedArchs");
  bind(nvrtc.get_supported_archs, "nvrtcGetSupportedArchs");
  if (!all) {
    nvrtc.why_not = library.path() + ": lacks an NVRTC entry point this module needs";
    return nvrtc;
  }
  nvrtc.loaded = true;
  return nvrtc;
}

}  // namespace

const NvrtcLibrary& NvrtcLibrary::get() {
  static const NvrtcLibrary library = open_nvrtc();
  return library;
}

std::string NvrtcLibrary::version_text() const {
  int major = 0, minor = 0;
  if (!loaded || version(&major, &minor) != 0) return {};
  return std::to_string(major) + "." + std::to_string(minor);
}

std::vector<int> NvrtcLibrary::supported_archs() const {
  int count = 0;
  if (!loaded || get_num_supported_archs == nullptr || get_supported_archs == nullptr ||
      get_num_supported_archs(&count) != 0 || count <= 0)
    return {};
  std::vector<int> archs(static_cast<std::size_t>(count));
  if (get_supported_archs(archs.data()) != 0) return {};
  return archs;
}

PtxResult compile_to_ptx(const NvrtcLibrary& nvrtc, const std::string& cuda_source,
                         const std::string& name, const std::vector<std::string>& options) {
  PtxResult result;
  nvrtc_program program = nullptr;
  auto failed = [&](const char* call, nvrtc_result status) {
    result.error = std::string(call) + ": " + nvrtc.get_error_string(status);
    return result;
  };
  nvrtc_result status =
      nvrtc.create_program(&program, cuda_source.c_str(), name.c_str(), 0, nullptr, nullptr);
  if (status != 0) return failed("nvrtcCreateProgram", status);
  struct Destroy {
    const NvrtcLibrary& nvrtc;
    nvrtc_program& program;
    ~Destroy() { nvrtc.destroy_program(&program); }
  } destroy{nvrtc, program};
  std::vector<const char*> argv;
  for (const std::string& o : options) argv.push_back(o.c_str());
  const nvrtc_result compiled =
      nvrtc.compile_program(program, static_cast<int>(argv.size()), argv.data());
  std::size_t size = 0;
  if (nvrtc.get_log_size(program, &size) == 0 && size > 1) {
    result.log.resize(size);
    nvrtc.get_log(program, result.log.data());
    result.log.resize(size - 1);
  }
  if (compiled != 0) return failed("nvrtcCompileProgram", compiled);
  if ((status = nvrtc.get_ptx_size(program, &size)) != 0) return failed("nvrtcGetPTXSize", status);
  result.ptx.resize(size);
  if ((status = nvrtc.get_ptx(program, result.ptx.data())) != 0)
    return failed("nvrtcGetPTX", status);
  if (!result.ptx.empty() && result.ptx.back() == '\0') result.ptx.pop_back();
  result.ok = true;
  return result;
}

}  // namespace xgpu_cuda
