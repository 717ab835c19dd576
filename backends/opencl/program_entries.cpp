// Programs from source: create, build, build log, kernel names.
#include <string>

#include "cl.hpp"
#include "entries.hpp"
#include "errors.hpp"
#include "program_devices.hpp"
#include "serialized_call.hpp"
#include "xgpu/common/out_param.hpp"

namespace xgpu::backend_opencl {

using common::bytes_of_string;
using common::copy_out;
namespace {

cl_program cl_prog(xgpu_program program) { return reinterpret_cast<cl_program>(program); }

// Size-then-fetch of a string property; "" when the driver reports size 0.
template <class Query>
std::string fetch_string(Query query, const char* function) {
  size_t size = 0;
  check(query(0, nullptr, &size), function);
  std::string text(size, '\0');
  if (size != 0) check(query(size, text.data(), nullptr), function);
  return text.substr(0, text.find('\0'));
}

}  // namespace

xgpu_status program_create(xgpu_context context, const char* source, size_t length,
                           xgpu_program* program) {
  return guard_on(context, [&] {
    if (program == nullptr || source == nullptr) {
      fail(XGPU_STATUS_INVALID_VALUE, "program_create: NULL source or program");
    }
    cl_int status = CL_SUCCESS;
    // A length of 0 tells OpenCL the source is NUL-terminated.
    cl_program created = clCreateProgramWithSource(reinterpret_cast<cl_context>(context), 1,
                                                   &source, &length, &status);
    check(status, "clCreateProgramWithSource");
    *program = reinterpret_cast<xgpu_program>(created);
    return XGPU_STATUS_SUCCESS;
  });
}

xgpu_status program_build(xgpu_program program, xgpu_device device, const char* options) {
  return guard_compiling(program, [&] {
    auto cl_device = reinterpret_cast<cl_device_id>(device);
    check(clBuildProgram(cl_prog(program), cl_device != nullptr ? 1 : 0,
                         cl_device != nullptr ? &cl_device : nullptr,
                         options != nullptr ? options : "", nullptr, nullptr),
          "clBuildProgram");
    return XGPU_STATUS_SUCCESS;
  });
}

xgpu_status program_build_log(xgpu_program program, xgpu_device device, char* buffer,
                              size_t capacity, size_t* size_ret) {
  return guard_on(program, [&] {
    cl_device_id cl_device = program_device(cl_prog(program), device);
    std::string log = fetch_string(
        [&](size_t size, void* value, size_t* returned) {
          return clGetProgramBuildInfo(cl_prog(program), cl_device, CL_PROGRAM_BUILD_LOG, size,
                                       value, returned);
        },
        "clGetProgramBuildInfo");
    copy_out(bytes_of_string(log), buffer, capacity, size_ret);
    return XGPU_STATUS_SUCCESS;
  });
}

xgpu_status program_kernel_names(xgpu_program program, char* buffer, size_t capacity,
                                 size_t* size_ret) {
  return guard_on(program, [&] {
    std::string names = fetch_string(
        [&](size_t size, void* value, size_t* returned) {
          return clGetProgramInfo(cl_prog(program), CL_PROGRAM_KERNEL_NAMES, size, value, returned);
        },
        "clGetProgramInfo");
    copy_out(bytes_of_string(names), buffer, capacity, size_ret);
    return XGPU_STATUS_SUCCESS;
  });
}

}  // namespace xgpu::backend_opencl
