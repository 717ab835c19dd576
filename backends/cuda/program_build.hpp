// The two halves of program_build(): turning OpenCL C into PTX (program_entries.cpp, through
// the translation and NVRTC; program_unavailable.cpp where the translation is not built) and
// loading PTX into the driver (program_module.cpp), which programs from the cache skip to.
#pragma once

#include <string>

#include "objects.hpp"

namespace xgpu::backend_cuda {

/// Translates and compiles program.source for the device: fills program.ptx, kernels and
/// build_log, or throws Failure with the log saying why (the feature and line the translation
/// lacks, NVRTC's errors with file:line, an NVRTC too old for the GPU).
void compile_source(Program& program, const DeviceRecord& device, const std::string& options);

/// What else than the driver decides the PTX a source becomes: "prelude <hash of the
/// translation's prelude>, NVRTC 13.0". device_info's platform version carries it, so the
/// kernel cache (keyed on it) misses when a new xgpu changes the prelude or NVRTC changes.
std::string translation_fingerprint();

/// cuModuleLoadDataEx on program.ptx; the JIT's error log goes to build_log, and a driver
/// older than the PTX is named as such.
void load_ptx(Program& program, const DeviceRecord& device);

}  // namespace xgpu::backend_cuda
