// The cache suite's raw OpenCL child (bench_cache_raw.cpp): a process that runs gemm.cl
// from a program binary it saved itself, the best an application can do by hand.
#pragma once

#include <xgpu/common/settings.hpp>

namespace xgpu::cli {

/// What the parent tells the child, in settings of its own (settings.def): the folder of
/// gemm.cl, its header and the binary the child saves (gemm.bin), and the device by OpenCL
/// platform name and device name.
inline constexpr common::Setting kRawFolder = common::Setting::bench_raw_folder;
inline constexpr common::Setting kRawPlatform = common::Setting::bench_raw_platform;
inline constexpr common::Setting kRawDevice = common::Setting::bench_raw_device;

/// Runs the SGEMM once through the OpenCL C API alone: from the saved binary when the
/// folder holds one, else built from source and then saved. Returns an exit code.
int raw_sgemm_child();

}  // namespace xgpu::cli
