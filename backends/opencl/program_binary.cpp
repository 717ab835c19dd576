// Program binaries for the kernel cache: read one device's binary, create a program from one.
#include <algorithm>
#include <string>
#include <vector>

#include "cl.hpp"
#include "entries.hpp"
#include "errors.hpp"
#include "program_devices.hpp"
#include "serialized_call.hpp"
#include "status_names.hpp"
#include "tracked_queues.hpp"
#include "xgpu/common/out_param.hpp"

namespace xgpu::backend_opencl {

using common::require_capacity;

xgpu_status program_binary(xgpu_program program, xgpu_device device, void* buffer, size_t capacity,
                           size_t* size_ret) {
  return guard_on(program, [&] {
    auto cl_program_handle = reinterpret_cast<cl_program>(program);
    cl_device_id wanted = program_device(cl_program_handle, device);
    std::vector<cl_device_id> devices = program_devices(cl_program_handle);
    auto found = std::find(devices.begin(), devices.end(), wanted);
    if (found == devices.end()) fail(CL_INVALID_DEVICE, "program_binary: device not in program");
    size_t index = static_cast<size_t>(found - devices.begin());

    // Under the compile lock, which launches take too: no launch starts until the fetch ends.
    // The sizes too: PoCL compiles for either query.
    return fetch_with_queues_drained(cl_program_handle, [&] {
      std::vector<size_t> sizes(devices.size());
      check(clGetProgramInfo(cl_program_handle, CL_PROGRAM_BINARY_SIZES,
                             sizes.size() * sizeof(size_t), sizes.data(), nullptr),
            "clGetProgramInfo");
      if (sizes[index] == 0) {
        fail(XGPU_STATUS_NOT_AVAILABLE, "program_binary: no binary (program not built?)");
      }
      if (size_ret != nullptr) *size_ret = sizes[index];
      if (buffer == nullptr) return XGPU_STATUS_SUCCESS;
      require_capacity(sizes[index], capacity);

      // A NULL entry tells the driver to skip that device's binary.
      std::vector<unsigned char*> binaries(devices.size(), nullptr);
      binaries[index] = static_cast<unsigned char*>(buffer);
      check(clGetProgramInfo(cl_program_handle, CL_PROGRAM_BINARIES,
                             binaries.size() * sizeof(unsigned char*), binaries.data(), nullptr),
            "clGetProgramInfo");
      return XGPU_STATUS_SUCCESS;
    });
  });
}

xgpu_status program_create_binary(xgpu_context context, xgpu_device device, const void* binary,
                                  size_t length, xgpu_program* program) {
  return guard_compiling(context, [&] {
    if (program == nullptr || binary == nullptr || length == 0) {
      fail(XGPU_STATUS_INVALID_VALUE, "program_create_binary: NULL or empty binary");
    }
    auto cl_device = reinterpret_cast<cl_device_id>(device);
    auto bytes = static_cast<const unsigned char*>(binary);
    cl_int binary_status = CL_SUCCESS;
    cl_int status = CL_SUCCESS;
    cl_program created =
        clCreateProgramWithBinary(reinterpret_cast<cl_context>(context), 1, &cl_device, &length,
                                  &bytes, &binary_status, &status);
    // The per-binary status says more than the call's (CL_INVALID_BINARY vs. which one).
    if (binary_status != CL_SUCCESS) {
      if (created != nullptr) clReleaseProgram(created);
      fail(binary_status, std::string("clCreateProgramWithBinary failed: binary status ") +
                              status_name(binary_status));
    }
    check(status, "clCreateProgramWithBinary");
    *program = reinterpret_cast<xgpu_program>(created);
    return XGPU_STATUS_SUCCESS;
  });
}

}  // namespace xgpu::backend_opencl
