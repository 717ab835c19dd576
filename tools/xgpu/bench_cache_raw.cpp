// The cache suite's raw baseline: what an application that keeps its own program binary
// pays, written with nothing but the OpenCL C API. It finds the device by platform and
// device name, and loads gemm.cl's binary from its folder; when there is none yet (its
// first, unmeasured run) it builds the source there, runs it, and saves the binary after
// the launch, when PoCL has compiled the launched work-group size into it.
#define CL_TARGET_OPENCL_VERSION 120
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include "bench_cache_raw.hpp"

#include <CL/cl.h>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench_cache_sgemm.hpp"
#include "raw_opencl_device.hpp"

namespace xgpu::cli {
namespace {

constexpr const char* kBinaryFile = "gemm.bin";

void check(cl_int status, const char* what) {
  if (status != CL_SUCCESS) {
    throw std::runtime_error(std::string(what) + " failed with status " + std::to_string(status));
  }
}

std::string required_environment(common::Setting setting) {
  const std::string value = common::setting_text(setting);
  if (value.empty())
    throw std::runtime_error(std::string(common::spec(setting).name) + " is not set");
  return value;
}

bool read_file(const std::string& path, std::string& bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return static_cast<bool>(in) || in.eof();
}

cl_program program_from_binary(cl_context context, cl_device_id device, const std::string& binary) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(binary.data());
  const std::size_t size = binary.size();
  cl_int status = CL_SUCCESS, binary_status = CL_SUCCESS;
  cl_program program =
      clCreateProgramWithBinary(context, 1, &device, &size, &bytes, &binary_status, &status);
  check(status, "clCreateProgramWithBinary");
  check(binary_status, "clCreateProgramWithBinary (the binary)");
  check(clBuildProgram(program, 1, &device, "", nullptr, nullptr), "clBuildProgram (binary)");
  return program;
}

cl_program program_from_source(cl_context context, cl_device_id device, const std::string& folder) {
  std::string source;
  if (!read_file(folder + "/gemm.cl", source)) {
    throw std::runtime_error("cannot read " + folder + "/gemm.cl");
  }
  const char* text = source.c_str();
  cl_int status = CL_SUCCESS;
  cl_program program = clCreateProgramWithSource(context, 1, &text, nullptr, &status);
  check(status, "clCreateProgramWithSource");
  const std::string options = "-I " + folder;
  check(clBuildProgram(program, 1, &device, options.c_str(), nullptr, nullptr),
        "clBuildProgram (source)");
  return program;
}

void save_binary(cl_program program, const std::string& path) {
  std::size_t size = 0;
  check(clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr),
        "clGetProgramInfo(CL_PROGRAM_BINARY_SIZES)");
  std::vector<unsigned char> binary(size);
  unsigned char* pointer = binary.data();
  check(clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof pointer, &pointer, nullptr),
        "clGetProgramInfo(CL_PROGRAM_BINARIES)");
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(binary.data()), static_cast<std::streamsize>(size));
  if (!out) throw std::runtime_error("cannot write " + path);
}

void run(const std::string& folder, cl_device_id device) {
  cl_int status = CL_SUCCESS;
  cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &status);
  check(status, "clCreateContext");
  cl_command_queue queue = clCreateCommandQueue(context, device, 0, &status);
  check(status, "clCreateCommandQueue");
  std::vector<float> a, b;
  sgemm_case::fill_inputs(a, b);
  std::vector<float> c(a.size(), 0.0f);
  const std::size_t bytes = a.size() * sizeof(float);
  cl_mem da = clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, nullptr, &status);
  check(status, "clCreateBuffer");
  cl_mem db = clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, nullptr, &status);
  check(status, "clCreateBuffer");
  cl_mem dc = clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, nullptr, &status);
  check(status, "clCreateBuffer");
  check(clEnqueueWriteBuffer(queue, da, CL_TRUE, 0, bytes, a.data(), 0, nullptr, nullptr),
        "clEnqueueWriteBuffer");
  check(clEnqueueWriteBuffer(queue, db, CL_TRUE, 0, bytes, b.data(), 0, nullptr, nullptr),
        "clEnqueueWriteBuffer");

  const std::string binary_path = folder + "/" + kBinaryFile;
  std::string binary;
  const bool have_binary = read_file(binary_path, binary) && !binary.empty();
  cl_program program = have_binary ? program_from_binary(context, device, binary)
                                   : program_from_source(context, device, folder);
  cl_kernel kernel = clCreateKernel(program, "xgpu_gemm", &status);
  check(status, "clCreateKernel");
  const cl_uint n = static_cast<cl_uint>(sgemm_case::kSize);
  const cl_float one = 1.0f, zero = 0.0f;
  check(clSetKernelArg(kernel, 0, sizeof n, &n), "clSetKernelArg");
  check(clSetKernelArg(kernel, 1, sizeof n, &n), "clSetKernelArg");
  check(clSetKernelArg(kernel, 2, sizeof n, &n), "clSetKernelArg");
  check(clSetKernelArg(kernel, 3, sizeof one, &one), "clSetKernelArg");
  check(clSetKernelArg(kernel, 4, sizeof da, &da), "clSetKernelArg");
  check(clSetKernelArg(kernel, 5, sizeof n, &n), "clSetKernelArg");
  check(clSetKernelArg(kernel, 6, sizeof db, &db), "clSetKernelArg");
  check(clSetKernelArg(kernel, 7, sizeof n, &n), "clSetKernelArg");
  check(clSetKernelArg(kernel, 8, sizeof zero, &zero), "clSetKernelArg");
  check(clSetKernelArg(kernel, 9, sizeof dc, &dc), "clSetKernelArg");
  check(clSetKernelArg(kernel, 10, sizeof n, &n), "clSetKernelArg");
  const std::size_t global[2] = {sgemm_case::kGlobal, sgemm_case::kGlobal};
  const std::size_t local[2] = {sgemm_case::kLocal, sgemm_case::kLocal};
  check(clEnqueueNDRangeKernel(queue, kernel, 2, nullptr, global, local, 0, nullptr, nullptr),
        "clEnqueueNDRangeKernel");
  check(clEnqueueReadBuffer(queue, dc, CL_TRUE, 0, bytes, c.data(), 0, nullptr, nullptr),
        "clEnqueueReadBuffer");
  if (!sgemm_case::product_matches(a, b, c)) {
    throw std::runtime_error("the raw SGEMM gave a wrong result");
  }
  if (!have_binary) save_binary(program, binary_path);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  clReleaseMemObject(dc);
  clReleaseMemObject(db);
  clReleaseMemObject(da);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
}

}  // namespace

int raw_sgemm_child() {
  try {
    const std::string folder = required_environment(kRawFolder);
    cl_device_id device =
        raw_opencl_device(required_environment(kRawPlatform), required_environment(kRawDevice));
    run(folder, device);
    return 0;
  } catch (const std::exception& error) {
    std::cerr << "xgpu: error: raw SGEMM child: " << error.what() << '\n';
    return 1;
  }
}

}  // namespace xgpu::cli
