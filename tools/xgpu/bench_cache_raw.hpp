// The cache suite's raw OpenCL child (bench_cache_raw.cpp): a process that runs gemm.cl
// from a program binary it saved itself, the best an application can do by hand.
#pragma once

namespace xgpu::cli {

/// The child's folder: gemm.cl and its header, and the binary it saves (gemm.bin).
inline constexpr const char* kRawFolderVariable = "XGPU_BENCH_RAW_FOLDER";
/// The device, by OpenCL platform name and device name.
inline constexpr const char* kRawPlatformVariable = "XGPU_BENCH_RAW_PLATFORM";
inline constexpr const char* kRawDeviceVariable = "XGPU_BENCH_RAW_DEVICE";

/// Runs the SGEMM once through the OpenCL C API alone: from the saved binary when the
/// folder holds one, else built from source and then saved. Returns an exit code.
int raw_sgemm_child();

}  // namespace xgpu::cli
