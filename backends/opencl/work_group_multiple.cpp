// The one-time probe behind XGPU_DEVICE_WORK_GROUP_MULTIPLE.
#include "work_group_multiple.hpp"

#include "status_names.hpp"
#include "xgpu/common/log.hpp"

namespace xgpu::backend_opencl {
namespace {

constexpr const char* kProbeSource =
    "__kernel void xgpu_probe(__global float* x) { x[get_global_id(0)] *= 2.0f; }";

// Releases whatever the probe created, in reverse order, on every path.
struct ProbeObjects {
  cl_context context = nullptr;
  cl_program program = nullptr;
  cl_kernel kernel = nullptr;
  ~ProbeObjects() {
    if (kernel != nullptr) clReleaseKernel(kernel);
    if (program != nullptr) clReleaseProgram(program);
    if (context != nullptr) clReleaseContext(context);
  }
};

struct ProbeResult {
  size_t multiple = 0;
  const char* failed_call = nullptr;
  cl_int status = CL_SUCCESS;
};

// The calls do not go through check(): a failed probe is not the caller's error and must not
// replace its last_error() text.
ProbeResult probe(cl_platform_id platform, cl_device_id device) {
  ProbeObjects objects;
  ProbeResult result;
  cl_int& status = result.status;
  auto failed = [&result](const char* call) {
    result.failed_call = call;
    return result;
  };
  cl_context_properties properties[] = {CL_CONTEXT_PLATFORM,
                                        reinterpret_cast<cl_context_properties>(platform), 0};
  objects.context = clCreateContext(properties, 1, &device, nullptr, nullptr, &status);
  if (status != CL_SUCCESS) return failed("clCreateContext");
  const char* source = kProbeSource;
  objects.program = clCreateProgramWithSource(objects.context, 1, &source, nullptr, &status);
  if (status != CL_SUCCESS) return failed("clCreateProgramWithSource");
  status = clBuildProgram(objects.program, 1, &device, "", nullptr, nullptr);
  if (status != CL_SUCCESS) return failed("clBuildProgram");
  objects.kernel = clCreateKernel(objects.program, "xgpu_probe", &status);
  if (status != CL_SUCCESS) return failed("clCreateKernel");
  status =
      clGetKernelWorkGroupInfo(objects.kernel, device, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                               sizeof(result.multiple), &result.multiple, nullptr);
  if (status != CL_SUCCESS) return failed("clGetKernelWorkGroupInfo");
  return result;
}

// OpenCL 3.0 devices answer directly; older ones (Oclgrind, 1.2 drivers) are probed.
// The probe compiles a kernel, which PoCL would pay at every process start: never for it.
size_t device_level_multiple(cl_device_id device) {
  constexpr cl_device_info kPreferredWorkGroupSizeMultiple = 0x1067;  // OpenCL 3.0
  size_t multiple = 0;
  if (clGetDeviceInfo(device, kPreferredWorkGroupSizeMultiple, sizeof multiple, &multiple,
                      nullptr) != CL_SUCCESS) {
    return 0;
  }
  return multiple;
}

}  // namespace

uint64_t work_group_multiple(DeviceRecord& record) {
  std::call_once(record.work_group_once, [&record] {
    if (size_t multiple = device_level_multiple(record.device)) {
      record.work_group_multiple = multiple;
      return;
    }
    ProbeResult result = probe(record.platform, record.device);
    if (result.failed_call != nullptr || result.multiple == 0) {
      XGPU_LOG_WARNF("work-group multiple probe on %s: %s failed: %s; assuming 1",
                     record.identity.device_name.c_str(),
                     result.failed_call != nullptr ? result.failed_call : "the probe",
                     status_name(result.status));
      result.multiple = 1;
    }
    record.work_group_multiple = result.multiple;
  });
  return record.work_group_multiple;
}

}  // namespace xgpu::backend_opencl
