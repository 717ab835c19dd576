// OpenCL without a link-time libOpenCL: a binary that links xgpu::opencl_loader gets every
// entry point of opencl_functions.def defined in itself (hidden, never exported), each calling
// the ICD loader's function through a table filled when the first of them is called. The ICD
// loader, libOpenCL.so.1, is opened then with the one library loader (dynamic_library.hpp). So
// the opencl module and the `xgpu` command start without it, and say what is missing instead
// of dying in the dynamic linker: `xgpu doctor` must run exactly where the loader is absent.
//
// A call costs a load from that table and an indirect jump, the kind of dispatch the ICD loader
// itself does for every call; the first call of each function opens the loader (once for all).
#pragma once

#include <string>

namespace xgpu::common {

/// What a missing ICD loader needs, for every message that reports one.
inline constexpr const char* kOpenClLoaderFix =
    "install an OpenCL ICD loader (Debian/Ubuntu: sudo apt install ocl-icd-libopencl1)";

/// Opens the ICD loader if no call did yet. Empty when it is open, else why it could not be
/// opened (the dynamic linker's text). Without it every OpenCL call fails:
/// CL_PLATFORM_NOT_FOUND_KHR, or NULL with that status in errcode_ret.
const std::string& opencl_loader_problem();

}  // namespace xgpu::common
