// Definitions of the shared plumbing of the checks that reach OpenCL driver features through
// xgpu's interop, because xgpu's own API does not offer them (see native.hpp): status names,
// the native handles of an Env, the known deviations of drivers, polling with a deadline, and
// the user-event gate and blocking map owners.
#include "native.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <thread>
#include <xgpu/cache.hpp>
#include <xgpu/interop.hpp>

#include "known_deviations.hpp"

namespace xgpu::conform::native {

using namespace std::chrono_literals;

std::string status_name(cl_int status) {
  // The opencl module names its statuses (its one table of them), asked through libxgpu.
  const std::string name = interop::status_name("opencl", status);
  return name == "UNKNOWN" ? "status " + std::to_string(status) : name;
}

std::string execution_name(cl_int status) {
  switch (status) {
    case CL_COMPLETE:
      return "CL_COMPLETE";
    case CL_RUNNING:
      return "CL_RUNNING";
    case CL_SUBMITTED:
      return "CL_SUBMITTED";
    case CL_QUEUED:
      return "CL_QUEUED";
  }
  return status_name(status);
}

bool on_opencl(const Env& env) { return interop::backend(env.device()) == "opencl"; }

void quiet_cache() { xgpu::cache::flush(); }

Native native_of(Env& env) {
  quiet_cache();
  return {opencl::context(env.context()), opencl::device(env.device()), opencl::queue(env.queue()),
          avoids(env, env.check(), "flush_while_gated"),
          drivers::opencl_version(env.info().device_version)};
}

std::string known_deviation(const Env& env) {
  return conform::known_deviation(env, env.check(), {});
}

std::string build_log(cl_program program, cl_device_id device) {
  std::size_t size = 0;
  if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size) !=
          CL_SUCCESS ||
      size == 0)
    return {};
  std::string log(size, '\0');
  if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr) !=
      CL_SUCCESS)
    return {};
  log.resize(std::strlen(log.c_str()));
  return log;
}

bool blank(const std::string& text) {
  return std::all_of(text.begin(), text.end(),
                     [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; });
}

ProgramObject build_native(const Native& cl, const char* source, std::string& problem) {
  cl_int error = CL_SUCCESS;
  ProgramObject program(clCreateProgramWithSource(cl.context, 1, &source, nullptr, &error));
  if (error != CL_SUCCESS) {
    problem = "clCreateProgramWithSource: " + status_name(error);
    return {};
  }
  error = clBuildProgram(program.get(), 1, &cl.device, "", nullptr, nullptr);
  if (error != CL_SUCCESS) {
    problem =
        "clBuildProgram: " + status_name(error) + ", log: " + build_log(program.get(), cl.device);
    return {};
  }
  return program;
}

cl_int execution_status(cl_event event) {
  cl_int status = CL_COMPLETE;
  const cl_int error =
      clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr);
  return error == CL_SUCCESS ? status : error;
}

cl_int wait_until_done(cl_event event, cl_command_queue queue) {
  const auto end = Clock::now() + kDeadline;
  for (;;) {
    if (queue) clFlush(queue);
    const cl_int status = execution_status(event);
    if (status <= CL_COMPLETE || Clock::now() >= end) return status;
    std::this_thread::sleep_for(1ms);
  }
}

std::string not_done(cl_int status) {
  return status > CL_COMPLETE
             ? execution_name(status) + " after " + std::to_string(kDeadline.count()) + " s"
             : execution_name(status);
}

std::string run_kernel(const Native& cl, cl_kernel kernel, const std::vector<cl_mem>& buffers,
                       std::size_t items) {
  for (cl_uint i = 0; i < buffers.size(); ++i) {
    const cl_int error = clSetKernelArg(kernel, i, sizeof(cl_mem), &buffers[i]);
    if (error != CL_SUCCESS)
      return "clSetKernelArg " + std::to_string(i) + ": " + status_name(error);
  }
  cl_event raw = nullptr;
  const cl_int error =
      clEnqueueNDRangeKernel(cl.queue, kernel, 1, nullptr, &items, nullptr, 0, nullptr, &raw);
  if (error != CL_SUCCESS) return "clEnqueueNDRangeKernel: " + status_name(error);
  EventObject done(raw);
  const cl_int status = wait_until_done(done.get(), cl.queue);
  return status == CL_COMPLETE ? std::string() : "the kernel ended " + not_done(status);
}

KernelObject make_kernel(cl_program program, const char* name, std::string& problem) {
  cl_int error = CL_SUCCESS;
  KernelObject kernel(clCreateKernel(program, name, &error));
  if (error != CL_SUCCESS)
    problem = std::string("clCreateKernel ") + name + ": " + status_name(error);
  return kernel;
}

std::vector<int> int_pattern(std::size_t n, int scale, int offset) {
  std::vector<int> values(n);
  for (std::size_t i = 0; i < n; ++i) values[i] = static_cast<int>(i) * scale + offset;
  return values;
}

Result compare_ints(const std::string& what, const std::vector<int>& expected, const int* got) {
  for (std::size_t i = 0; i < expected.size(); ++i) {
    if (got[i] != expected[i])
      return fail_expected(what + ", element " + std::to_string(i), expected[i], got[i]);
  }
  return pass();
}

Result read_and_compare(const Native& cl, cl_mem buffer, const std::string& what,
                        const std::vector<int>& expected) {
  std::vector<int> got(expected.size());
  const cl_int error = clEnqueueReadBuffer(cl.queue, buffer, CL_TRUE, 0, got.size() * sizeof(int),
                                           got.data(), 0, nullptr, nullptr);
  if (error != CL_SUCCESS)
    return fail_expected("clEnqueueReadBuffer, " + what, "CL_SUCCESS", status_name(error));
  return compare_ints(what, expected, got.data());
}

Gate::Gate(cl_context context) {
  cl_int error = CL_SUCCESS;
  event_ = EventObject(clCreateUserEvent(context, &error));
  raw_ = event_.get();
  error_ = error;
}

cl_int Gate::open() {
  if (!event_ || opened_) return CL_SUCCESS;
  opened_ = true;
  return clSetUserEventStatus(event_.get(), CL_COMPLETE);
}

Mapped::Mapped(cl_command_queue queue, cl_mem buffer, cl_map_flags flags, std::size_t bytes)
    : queue_(queue), buffer_(buffer) {
  pointer_ =
      clEnqueueMapBuffer(queue, buffer, CL_TRUE, flags, 0, bytes, 0, nullptr, nullptr, &error_);
  if (error_ != CL_SUCCESS) pointer_ = nullptr;
}

cl_int Mapped::unmap() {
  if (!pointer_) return CL_COMPLETE;
  cl_event raw = nullptr;
  const cl_int error =
      clEnqueueUnmapMemObject(queue_, buffer_, std::exchange(pointer_, nullptr), 0, nullptr, &raw);
  if (error != CL_SUCCESS) return error;
  EventObject done(raw);
  return wait_until_done(done.get(), queue_);
}

}  // namespace xgpu::conform::native
