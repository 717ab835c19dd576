// The compiler suite's checks of separate compile and link (clCompileProgram,
// clLinkProgram) and of program binaries, made through xgpu's OpenCL interop
// (xgpu/opencl.hpp) on xgpu's own context because xgpu's own API builds programs only from
// source in one step and gives no binaries; shared plumbing in native.hpp.
#include <algorithm>
#include <atomic>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "known_deviations.hpp"
#include "native.hpp"

namespace xgpu::conform {
namespace {

using namespace native;
using namespace std::chrono_literals;

const char* const kHelperSource = "int conform_helper(int x) { return x * 3 + 1; }\n";
const char* const kUserSource = R"(int conform_helper(int x);
kernel void use_helper(global int* out) {
  int i = (int)get_global_id(0);
  out[i] = conform_helper(i);
}
)";

const char* const kNeeds12 = "needs OpenCL 1.2 (clCompileProgram, clLinkProgram)";

ProgramObject compile_native(const Native& cl, const char* source, const char* what,
                             std::string& problem) {
  cl_int error = CL_SUCCESS;
  ProgramObject program(clCreateProgramWithSource(cl.context, 1, &source, nullptr, &error));
  if (error != CL_SUCCESS) {
    problem = std::string("clCreateProgramWithSource of ") + what + ": " + status_name(error);
    return {};
  }
  error = clCompileProgram(program.get(), 1, &cl.device, "", 0, nullptr, nullptr, nullptr, nullptr);
  if (error != CL_SUCCESS) {
    problem = std::string("clCompileProgram of ") + what + ": " + status_name(error) +
              ", log: " + build_log(program.get(), cl.device);
    return {};
  }
  return program;
}

// Two sources compiled apart, the kernel's calling a function the other defines, linked.
Result compile_then_link(Env& env) {
  if (!on_opencl(env)) return skip(kNeedsOpenCL);
  const Native cl = native_of(env);
  if (cl.version < drivers::Version{1, 2}) return skip(kNeeds12);
  std::string problem;
  const ProgramObject helper = compile_native(cl, kHelperSource, "the helper's source", problem);
  if (!helper) return fail_expected("compiling", "CL_SUCCESS", problem);
  const ProgramObject user = compile_native(cl, kUserSource, "the kernel's source", problem);
  if (!user) return fail_expected("compiling", "CL_SUCCESS", problem);
  const cl_program inputs[2] = {helper.get(), user.get()};
  cl_int error = CL_SUCCESS;
  const ProgramObject linked(
      clLinkProgram(cl.context, 1, &cl.device, "", 2, inputs, nullptr, nullptr, &error));
  if (error != CL_SUCCESS)
    return fail_expected(
        "clLinkProgram of the two compiled programs", "CL_SUCCESS",
        status_name(error) + (linked ? ", log: " + build_log(linked.get(), cl.device) : ""));
  const KernelObject kernel = make_kernel(linked.get(), "use_helper", problem);
  if (!kernel) return fail_expected("the linked program's kernel", "CL_SUCCESS", problem);
  const std::size_t n = 64;
  Buffer<int> out = env.context().alloc<int>(n);
  problem = run_kernel(cl, kernel.get(), {opencl::buffer(out)}, n);
  if (!problem.empty()) return fail_expected("use_helper", "CL_COMPLETE", problem);
  const std::vector<int> got = env.queue().read(out);
  return compare_ints("out[i] = conform_helper(i) = i * 3 + 1 after linking", int_pattern(n, 3, 1),
                      got.data());
}

// What a link notification saw: the log of the program it was given. Records live for the
// process: a driver may notify late, after the check has given up.
struct LinkNotice {
  cl_device_id device = nullptr;
  std::mutex mutex;
  std::string log;
  std::atomic<bool> called{false};
};

void CL_CALLBACK on_linked(cl_program program, void* data) {
  auto* notice = static_cast<LinkNotice*>(data);
  {
    const std::lock_guard<std::mutex> lock(notice->mutex);
    notice->log = build_log(program, notice->device);
  }
  notice->called = true;
}

// A kernel calling a function no input defines: the link fails, and says why. The log is
// read from the program clLinkProgram returns (as the spec asks) or, for drivers that return
// none (PoCL 3.1), from the program the link notification receives.
Result link_missing_symbol(Env& env) {
  if (!on_opencl(env)) return skip(kNeedsOpenCL);
  const Native cl = native_of(env);
  if (cl.version < drivers::Version{1, 2}) return skip(kNeeds12);
  std::string problem;
  const ProgramObject user = compile_native(cl, kUserSource, "the kernel's source", problem);
  if (!user) return fail_expected("compiling", "CL_SUCCESS", problem);
  LinkNotice& notice = lasting_record<LinkNotice>();
  notice.device = cl.device;
  const cl_program input = user.get();
  cl_int error = CL_SUCCESS;
  const ProgramObject linked(
      clLinkProgram(cl.context, 1, &cl.device, "", 1, &input, on_linked, &notice, &error));
  const auto end = Clock::now() + kDeadline;
  // With a notification the link may go on after the call returned: wait for it.
  while (linked && error == CL_SUCCESS && !notice.called && Clock::now() < end)
    std::this_thread::sleep_for(1ms);
  cl_build_status status = CL_BUILD_ERROR;
  if (linked && error == CL_SUCCESS)
    clGetProgramBuildInfo(linked.get(), cl.device, CL_PROGRAM_BUILD_STATUS, sizeof status, &status,
                          nullptr);
  if (error == CL_SUCCESS && status == CL_BUILD_SUCCESS) {
    // No kernel is made to confirm it: Oclgrind prints a FATAL ERROR line when asked.
    const std::string reason = known_deviation(env);
    if (!reason.empty()) return skip(reason);
    return fail_expected("clLinkProgram of a kernel calling an undefined function",
                         "CL_LINK_PROGRAM_FAILURE and a log", "a linked program");
  }
  std::string log = linked ? build_log(linked.get(), cl.device) : std::string();
  while (blank(log) && Clock::now() < end) {
    if (notice.called) {
      const std::lock_guard<std::mutex> lock(notice.mutex);
      log = notice.log;
      break;
    }
    std::this_thread::sleep_for(1ms);
  }
  if (blank(log))
    return fail_expected(
        "the log of a link failing on an undefined function (" + status_name(error) + ")",
        "a message", linked ? "an empty log" : "no program object and no notification with a log");
  return pass();
}

const char* const kSquareSource = R"(
kernel void square_plus(global int* data) {
  int i = (int)get_global_id(0);
  data[i] = data[i] * data[i] + i;
}
)";

// The program's binary for its one device; empty when the driver gives none.
std::vector<unsigned char> program_binary(cl_program program, std::string& problem) {
  cl_uint devices = 0;
  cl_int error =
      clGetProgramInfo(program, CL_PROGRAM_NUM_DEVICES, sizeof devices, &devices, nullptr);
  if (error != CL_SUCCESS || devices != 1) {
    problem = "CL_PROGRAM_NUM_DEVICES: " + status_name(error) + ", " + std::to_string(devices);
    return {};
  }
  std::size_t size = 0;
  error = clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr);
  if (error != CL_SUCCESS) {
    problem = "CL_PROGRAM_BINARY_SIZES: " + status_name(error);
    return {};
  }
  std::vector<unsigned char> binary(size);
  unsigned char* target = binary.data();
  if (size > 0) {
    error = clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof target, &target, nullptr);
    if (error != CL_SUCCESS) {
      problem = "CL_PROGRAM_BINARIES: " + status_name(error);
      return {};
    }
  }
  return binary;
}

// Runs square_plus of `program` over data[i] = i - 20 and compares with the host.
Result run_square(Env& env, const Native& cl, cl_program program, const std::string& what) {
  std::string problem;
  const KernelObject kernel = make_kernel(program, "square_plus", problem);
  if (!kernel) return fail_expected(what, "CL_SUCCESS", problem);
  const std::size_t n = 64;
  const std::vector<int> input = int_pattern(n, 1, -20);
  Buffer<int> data = env.context().alloc<int>(n);
  env.queue().write(data, input);
  problem = run_kernel(cl, kernel.get(), {opencl::buffer(data)}, n);
  if (!problem.empty()) return fail_expected(what, "CL_COMPLETE", problem);
  std::vector<int> expected(n);
  for (std::size_t i = 0; i < n; ++i) expected[i] = input[i] * input[i] + static_cast<int>(i);
  const std::vector<int> got = env.queue().read(data);
  return compare_ints(what + ": data[i] * data[i] + i", expected, got.data());
}

// Build, fetch CL_PROGRAM_BINARIES, make a program of the binary, build it, run it.
Result binary_round_trip(Env& env) {
  if (!on_opencl(env)) return skip(kNeedsOpenCL);
  const Native cl = native_of(env);
  std::string problem;
  const ProgramObject source = build_native(cl, kSquareSource, problem);
  if (!source) return fail_expected("building from source", "CL_SUCCESS", problem);
  const Result from_source = run_square(env, cl, source.get(), "the program built from source");
  if (from_source.outcome != Outcome::pass) return from_source;
  const std::vector<unsigned char> binary = program_binary(source.get(), problem);
  if (!problem.empty()) return fail_expected("the program's binary", "CL_SUCCESS", problem);
  if (binary.empty()) return skip("the driver gives no program binary (CL_PROGRAM_BINARY_SIZES 0)");
  const unsigned char* bytes = binary.data();
  const std::size_t length = binary.size();
  cl_int binary_status = CL_SUCCESS, error = CL_SUCCESS;
  const ProgramObject loaded(clCreateProgramWithBinary(cl.context, 1, &cl.device, &length, &bytes,
                                                       &binary_status, &error));
  if (error != CL_SUCCESS || binary_status != CL_SUCCESS)
    return fail_expected("clCreateProgramWithBinary of the program's own binary (" +
                             std::to_string(length) + " bytes)",
                         "CL_SUCCESS",
                         status_name(error) + ", binary status " + status_name(binary_status));
  error = clBuildProgram(loaded.get(), 1, &cl.device, "", nullptr, nullptr);
  if (error != CL_SUCCESS)
    return fail_expected("clBuildProgram of a program made from a binary", "CL_SUCCESS",
                         status_name(error) + ", log: " + build_log(loaded.get(), cl.device));
  return run_square(env, cl, loaded.get(), "the program made from its binary");
}

// Binaries that are not a program for this device are refused with an error status, at
// clCreateProgramWithBinary or at the latest at clBuildProgram, and nothing crashes.
//
// A truncated good binary is left out where the table of known drivers says it crashes the
// driver (truncated_binary: PoCL): a crash would end the whole run.
Result binary_corrupt_rejected(Env& env) {
  if (!on_opencl(env)) return skip(kNeedsOpenCL);
  const Native cl = native_of(env);
  std::string problem;
  const ProgramObject source = build_native(cl, kSquareSource, problem);
  if (!source) return fail_expected("building from source", "CL_SUCCESS", problem);
  const std::vector<unsigned char> good = program_binary(source.get(), problem);
  if (!problem.empty()) return fail_expected("the program's binary", "CL_SUCCESS", problem);
  if (good.size() < 16)
    return skip("the driver gives no program binary (CL_PROGRAM_BINARY_SIZES " +
                std::to_string(good.size()) + ")");

  struct Case {
    std::string what;
    std::vector<unsigned char> bytes;
    std::size_t length;
  };
  std::vector<Case> cases;
  cases.push_back({"a zero length", good, 0});
  std::vector<unsigned char> flipped = good;
  for (std::size_t i = 0; i < 4; ++i) flipped[i] ^= 0xFF;
  cases.push_back({"a good binary with its first 4 bytes flipped", flipped, flipped.size()});
  std::vector<unsigned char> random(4096);
  std::mt19937 generator(20240605);
  for (unsigned char& byte : random) byte = static_cast<unsigned char>(generator());
  cases.push_back({"4096 random bytes", random, random.size()});
  const std::string text = kSquareSource;
  cases.push_back({"OpenCL C source text", {text.begin(), text.end()}, text.size()});
  std::vector<unsigned char> spirv(256, 0x11);
  const unsigned char magic[4] = {0x03, 0x02, 0x23, 0x07};  // SPIR-V, little-endian
  std::copy(magic, magic + 4, spirv.begin());
  cases.push_back({"a SPIR-V magic number followed by junk", spirv, spirv.size()});
  if (!avoids(env, env.check(), "truncated_binary"))
    cases.push_back({"the first half of a good binary", good, good.size() / 2});

  for (const Case& c : cases) {
    const unsigned char* bytes = c.bytes.data();
    cl_int binary_status = CL_SUCCESS, error = CL_SUCCESS;
    const ProgramObject program(clCreateProgramWithBinary(cl.context, 1, &cl.device, &c.length,
                                                          &bytes, &binary_status, &error));
    if (error != CL_SUCCESS || binary_status != CL_SUCCESS || !program) continue;  // refused
    error = clBuildProgram(program.get(), 1, &cl.device, "", nullptr, nullptr);
    if (error != CL_SUCCESS) continue;  // refused at build
    return fail_expected("clCreateProgramWithBinary and clBuildProgram of " + c.what,
                         "an error status (CL_INVALID_BINARY)", "CL_SUCCESS from both");
  }
  return pass();
}

}  // namespace

void register_native_compiler(Registry& registry) {
  registry.add("compiler", "compile_then_link", "", compile_then_link);
  registry.add("compiler", "link_missing_symbol", "", link_missing_symbol);
  registry.add("compiler", "binary_round_trip", "", binary_round_trip);
  registry.add("compiler", "binary_corrupt_rejected", "", binary_corrupt_rejected);
}

}  // namespace xgpu::conform
