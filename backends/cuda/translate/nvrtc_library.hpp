// NVRTC opened at run time (libnvrtc.so.*, or XGPU_NVRTC_LIBRARY) through backends/common's
// one library loader. The few entry points are declared here by hand, with NVRTC's C ABI
// (nvrtcResult is an int, nvrtcProgram a pointer), so no CUDA toolkit header is needed to
// build: a machine without the toolkit builds the module and reports NVRTC as absent.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace xgpu_cuda {

struct NvrtcProgramTag;
using nvrtc_program = NvrtcProgramTag*;
using nvrtc_result = int;  // NVRTC_SUCCESS is 0

struct NvrtcLibrary {
  const char* (*get_error_string)(nvrtc_result) = nullptr;
  nvrtc_result (*version)(int* major, int* minor) = nullptr;
  nvrtc_result (*create_program)(nvrtc_program*, const char* source, const char* name, int headers,
                                 const char* const* header_sources,
                                 const char* const* header_names) = nullptr;
  nvrtc_result (*destroy_program)(nvrtc_program*) = nullptr;
  nvrtc_result (*compile_program)(nvrtc_program, int count, const char* const* options) = nullptr;
  nvrtc_result (*get_ptx_size)(nvrtc_program, std::size_t*) = nullptr;
  nvrtc_result (*get_ptx)(nvrtc_program, char*) = nullptr;
  nvrtc_result (*get_log_size)(nvrtc_program, std::size_t*) = nullptr;
  nvrtc_result (*get_log)(nvrtc_program, char*) = nullptr;
  /// nvrtcGetSupportedArchs: absent before CUDA 11.2, so may stay null.
  nvrtc_result (*get_num_supported_archs)(int*) = nullptr;
  nvrtc_result (*get_supported_archs)(int*) = nullptr;

  bool loaded = false;
  std::string path;     ///< the file that served
  std::string why_not;  ///< every candidate tried and why it failed, when !loaded

  /// Opened once per process (thread-safe); never closed, as its pointers are kept.
  static const NvrtcLibrary& get();
  /// "13.0", or empty when not loaded.
  std::string version_text() const;
  /// The compute capabilities (80, 90, ...) this NVRTC can target; empty when it cannot say.
  std::vector<int> supported_archs() const;
};

/// What one compilation gave: ok and the PTX, or the log saying why not (the log is kept
/// in both cases: NVRTC warnings).
struct PtxResult {
  bool ok = false;
  std::string ptx;
  std::string log;
  std::string error;  ///< nvrtcGetErrorString of a failed call, with the call's name
};

/// Compiles a Translation's cuda_source with `options` (from nvrtc_options()). Requires
/// library.loaded.
PtxResult compile_to_ptx(const NvrtcLibrary& library, const std::string& cuda_source,
                         const std::string& name, const std::vector<std::string>& options);

/// What decides the PTX a source becomes besides the driver and the GPU: "prelude <hash of
/// the prelude's text>, NVRTC 13.0" ("no NVRTC" when none is loaded). The module puts it in
/// the platform version, which keys the kernel cache, so PTX made through another prelude or
/// another NVRTC (an upgrade may change code generation, or fix a miscompile) is never loaded.
std::string translation_fingerprint(const NvrtcLibrary& nvrtc);

}  // namespace xgpu_cuda
