// The raw OpenCL side of a benchmark (bench dispatch, varying, allocation, bench cache's raw
// child) finds the device xgpu measures through the C API alone, by platform name and device
// name, and makes its own context, queue and program on it.
#pragma once

#define CL_TARGET_OPENCL_VERSION 120
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>

#include <string>

namespace xgpu::cli {

/// The device named `device_name` on the platform named `platform_name`; throws
/// std::runtime_error naming both when there is none.
cl_device_id raw_opencl_device(const std::string& platform_name, const std::string& device_name);

/// Throws xgpu::Error (backend, call "bench") "<what> failed: <status>" unless status is
/// CL_SUCCESS.
void check_cl(cl_int status, const char* what);

/// A context and an in-order queue of their own on raw_opencl_device(platform_name,
/// device_name), and a program built from `source` with `options` when a source is given; all
/// released with it. What a benchmark makes on top (kernels, buffers) it releases first.
struct RawQueue {
  cl_device_id device = nullptr;
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
  cl_program program = nullptr;

  RawQueue(const std::string& platform_name, const std::string& device_name,
           const char* source = nullptr, const std::string& options = {});
  RawQueue(const RawQueue&) = delete;
  RawQueue& operator=(const RawQueue&) = delete;
  ~RawQueue();

  /// The program's kernel `name` (the caller releases it).
  cl_kernel kernel(const char* name) const;

 private:
  void release() noexcept;
};

}  // namespace xgpu::cli
