// CL_PROGRAM_DEVICES, shared by the build log and binary entries.
#include "program_devices.hpp"

#include "errors.hpp"

namespace xgpu::backend_opencl {

std::vector<cl_device_id> program_devices(cl_program program) {
  cl_uint count = 0;
  check(clGetProgramInfo(program, CL_PROGRAM_NUM_DEVICES, sizeof(count), &count, nullptr),
        "clGetProgramInfo");
  std::vector<cl_device_id> devices(count);
  check(clGetProgramInfo(program, CL_PROGRAM_DEVICES, count * sizeof(cl_device_id), devices.data(),
                         nullptr),
        "clGetProgramInfo");
  return devices;
}

cl_device_id program_device(cl_program program, xgpu_device device) {
  if (device != nullptr) return reinterpret_cast<cl_device_id>(device);
  std::vector<cl_device_id> devices = program_devices(program);
  if (devices.empty()) fail(CL_INVALID_PROGRAM, "program has no device");
  return devices.front();
}

}  // namespace xgpu::backend_opencl
