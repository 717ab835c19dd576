// See raw_opencl_device.hpp.
#include "raw_opencl_device.hpp"

#include <stdexcept>
#include <vector>
#include <xgpu/error.hpp>

namespace xgpu::cli {
namespace {

void check(cl_int status, const char* what) {
  if (status != CL_SUCCESS)
    throw std::runtime_error(std::string(what) + " failed with status " + std::to_string(status));
}

template <class Query>
std::string info_text(Query&& query) {
  std::size_t size = 0;
  if (query(0, nullptr, &size) != CL_SUCCESS) return {};
  std::string text(size, '\0');
  if (query(size, text.data(), nullptr) != CL_SUCCESS) return {};
  while (!text.empty() && text.back() == '\0') text.pop_back();
  return text;
}

}  // namespace

cl_device_id raw_opencl_device(const std::string& platform_name, const std::string& device_name) {
  cl_uint count = 0;
  check(clGetPlatformIDs(0, nullptr, &count), "clGetPlatformIDs");
  std::vector<cl_platform_id> platforms(count);
  check(clGetPlatformIDs(count, platforms.data(), nullptr), "clGetPlatformIDs");
  for (cl_platform_id platform : platforms) {
    auto platform_query = [&](std::size_t size, void* value, std::size_t* size_ret) {
      return clGetPlatformInfo(platform, CL_PLATFORM_NAME, size, value, size_ret);
    };
    if (info_text(platform_query) != platform_name) continue;
    cl_uint devices = 0;
    if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &devices) != CL_SUCCESS) continue;
    std::vector<cl_device_id> ids(devices);
    check(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, devices, ids.data(), nullptr),
          "clGetDeviceIDs");
    for (cl_device_id id : ids) {
      auto device_query = [&](std::size_t size, void* value, std::size_t* size_ret) {
        return clGetDeviceInfo(id, CL_DEVICE_NAME, size, value, size_ret);
      };
      if (info_text(device_query) == device_name) return id;
    }
  }
  throw std::runtime_error("no OpenCL device named '" + device_name + "' on a platform named '" +
                           platform_name + "'");
}

void check_cl(cl_int status, const char* what) {
  if (status != CL_SUCCESS)
    throw Error(Errc::backend, std::string(what) + " failed: " + std::to_string(status), "bench");
}

RawQueue::RawQueue(const std::string& platform_name, const std::string& device_name,
                   const char* source, const std::string& options)
    : device(raw_opencl_device(platform_name, device_name)) {
  // A failure here leaves the destructor unrun: release what was made so far.
  try {
    cl_int status = CL_SUCCESS;
    context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &status);
    check_cl(status, "clCreateContext");
    queue = clCreateCommandQueue(context, device, 0, &status);
    check_cl(status, "clCreateCommandQueue");
    if (source == nullptr) return;
    program = clCreateProgramWithSource(context, 1, &source, nullptr, &status);
    check_cl(status, "clCreateProgramWithSource");
    check_cl(clBuildProgram(program, 1, &device, options.c_str(), nullptr, nullptr),
             "clBuildProgram");
  } catch (...) {
    release();
    throw;
  }
}

RawQueue::~RawQueue() { release(); }

void RawQueue::release() noexcept {
  if (program) clReleaseProgram(program);
  if (queue) clReleaseCommandQueue(queue);
  if (context) clReleaseContext(context);
  program = nullptr;
  queue = nullptr;
  context = nullptr;
}

cl_kernel RawQueue::kernel(const char* name) const {
  cl_int status = CL_SUCCESS;
  cl_kernel made = clCreateKernel(program, name, &status);
  check_cl(status, "clCreateKernel");
  return made;
}

}  // namespace xgpu::cli
