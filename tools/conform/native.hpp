// Shared plumbing of the conformance checks that reach OpenCL driver features through xgpu's
// interop (xgpu/opencl.hpp), on xgpu's own context and queue, so that they test the driver as
// xgpu uses it. xgpu's own API does not offer these features: native reference counts behind
// xgpu's handles (api, suite_native_api.cpp), sub-buffers and host-pointer flags (memory,
// suite_native_memory.cpp), separate compile and link, program binaries (compiler,
// suite_native_compiler.cpp), user events, markers and callbacks (events,
// suite_native_events.cpp), and correctly rounded division and sqrt (math,
// suite_native_math.cpp). Here: names of statuses, owners of OpenCL objects, the native
// handles of an Env, the known deviations of drivers, polling with a deadline.
//
// Only OpenCL 1.2 calls are made (user events, sub-buffers and callbacks are 1.1), and 1.2
// ones only after the device says it is 1.2. Every object made is released through the small
// owners below, on failure paths too; a user event always completes before its release, so no
// command is left waiting on it. Nothing waits forever: polls give up after kDeadline.
//
// These calls bypass the locks xgpu's OpenCL module takes for drivers that need them
// (Oclgrind is not thread-safe; PoCL corrupts its heap when a binary is fetched while another
// thread compiles). The checks run on one thread, so the only other caller is xgpu's kernel
// cache writer: every check lets it finish its pending saves first (quiet_cache), and again
// after building or launching through xgpu when native calls follow.
#pragma once

#include <chrono>
#include <cstddef>
#include <deque>
#include <mutex>
#include <string>
#include <utility>
#include <vector>
#include <xgpu/opencl.hpp>

#include "check.hpp"
#include "xgpu/common/drivers/version.hpp"

namespace xgpu::conform {

// The checks of each suite (suite_native_<suite>.cpp), registered by register_native.
void register_native_api(Registry& registry);
void register_native_memory(Registry& registry);
void register_native_compiler(Registry& registry);
void register_native_events(Registry& registry);
void register_native_math(Registry& registry);

namespace native {

using Clock = std::chrono::steady_clock;

// How long a command, a callback or a driver's own reference may take before a check fails.
inline constexpr std::chrono::seconds kDeadline{5};
// How long a check gives a broken driver to run a command that must not run yet.
inline constexpr std::chrono::milliseconds kGrace{20};

inline constexpr const char* kNeedsOpenCL = "needs the opencl backend";

// "CL_INVALID_VALUE", or "status -1234" for one it does not know.
std::string status_name(cl_int status);
// A command's execution status (CL_COMPLETE is CL_SUCCESS, 0), or the error it ended with.
std::string execution_name(cl_int status);

// Owns one reference to an OpenCL object and releases it once.
template <class T, cl_int(CL_API_CALL* Release)(T)>
class Owned {
 public:
  Owned() = default;
  explicit Owned(T handle) : handle_(handle) {}
  Owned(const Owned&) = delete;
  Owned& operator=(const Owned&) = delete;
  Owned(Owned&& other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}
  Owned& operator=(Owned&& other) noexcept {
    if (this != &other) {
      reset();
      handle_ = std::exchange(other.handle_, nullptr);
    }
    return *this;
  }
  ~Owned() { reset(); }
  T get() const { return handle_; }
  explicit operator bool() const { return handle_ != nullptr; }
  void reset() {
    if (handle_) Release(std::exchange(handle_, nullptr));
  }

 private:
  T handle_ = nullptr;
};
using MemObject = Owned<cl_mem, clReleaseMemObject>;
using ProgramObject = Owned<cl_program, clReleaseProgram>;
using KernelObject = Owned<cl_kernel, clReleaseKernel>;
using EventObject = Owned<cl_event, clReleaseEvent>;
using ContextReference = Owned<cl_context, clReleaseContext>;

// Whether the Env's device is on xgpu's opencl backend (else checks skip: kNeedsOpenCL).
bool on_opencl(const Env& env);

// xgpu's context, device and queue of an Env, as OpenCL handles.
struct Native {
  cl_context context;
  cl_device_id device;
  cl_command_queue queue;
  // The driver runs a queue's commands in clFlush, so flushing while a command waits on a user
  // event would hang (known_drivers.def: flush_while_gated).
  bool flush_waits;
  drivers::Version version;  // the device's OpenCL version
};

// Lets xgpu's kernel cache writer save what it has pending, so that it does not call into
// the driver while this thread does so natively (see the top).
void quiet_cache();

// The native handles of the Env, once the kernel cache writer is idle.
Native native_of(Env& env);

// The skip reason when the table of known drivers names a wrong result of the running check
// on the Env's driver, else empty. A check asks only once it observed exactly that deviation,
// so any other outcome still counts (a driver that fixes it passes, one that fails
// differently fails).
std::string known_deviation(const Env& env);

// The program's build log for `device`; empty when there is none or it cannot be read.
std::string build_log(cl_program program, cl_device_id device);

// Whether `text` holds only white space (or nothing).
bool blank(const std::string& text);

// Builds `source` from text; on failure returns no program and says why in `problem`.
ProgramObject build_native(const Native& cl, const char* source, std::string& problem);

// CL_EVENT_COMMAND_EXECUTION_STATUS of `event`, or the error querying it returned.
cl_int execution_status(cl_event event);

// Polls until `event` completes or fails, flushing `queue` (may be null) each round, for at
// most kDeadline. Returns the last status: CL_COMPLETE, an error, or a pending status.
// Only for commands that can run: on Oclgrind the flush runs the whole queue.
cl_int wait_until_done(cl_event event, cl_command_queue queue);

// A status from wait_until_done, named; a pending one says it stayed so for kDeadline.
std::string not_done(cl_int status);

// Runs a 1D kernel over `items` work-items with buffer arguments, on the Env's queue, and
// waits for it. Returns "" or what went wrong.
std::string run_kernel(const Native& cl, cl_kernel kernel, const std::vector<cl_mem>& buffers,
                       std::size_t items);

// The kernel `name` of `program`; none on failure, saying why in `problem`.
KernelObject make_kernel(cl_program program, const char* name, std::string& problem);

// values[i] = i * scale + offset.
std::vector<int> int_pattern(std::size_t n, int scale, int offset);

// Passes when got[i] == expected[i] for every i; else fails naming the first element.
Result compare_ints(const std::string& what, const std::vector<int>& expected, const int* got);

// Reads `buffer` (blocking, on the Env's queue) and compares it with `expected`.
Result read_and_compare(const Native& cl, cl_mem buffer, const std::string& what,
                        const std::vector<int>& expected);

// A new record of what a driver's callback saw, alive for the whole process: a driver may
// call back late, or twice, after the check has given up.
template <class Record>
Record& lasting_record() {
  static std::mutex mutex;
  static std::deque<Record> records;
  const std::lock_guard<std::mutex> lock(mutex);
  return records.emplace_back();
}

// A user event gating commands. It completes at the latest when it goes out of scope, before
// its release: a command left waiting on it would block its queue, and every later check.
class Gate {
 public:
  explicit Gate(cl_context context);
  ~Gate() { open(); }
  Gate(const Gate&) = delete;
  Gate& operator=(const Gate&) = delete;
  cl_int error() const { return error_; }
  // A wait list of one: the user event.
  const cl_event* get() const { return &raw_; }
  // Sets the user event to CL_COMPLETE (once); the status clSetUserEventStatus returned.
  cl_int open();

 private:
  EventObject event_;
  cl_event raw_ = nullptr;
  cl_int error_ = CL_SUCCESS;
  bool opened_ = false;
};

// A blocking map that is unmapped (and the unmap waited for) when it goes out of scope.
class Mapped {
 public:
  Mapped(cl_command_queue queue, cl_mem buffer, cl_map_flags flags, std::size_t bytes);
  ~Mapped() { unmap(); }
  Mapped(const Mapped&) = delete;
  Mapped& operator=(const Mapped&) = delete;
  cl_int error() const { return error_; }
  void* get() const { return pointer_; }
  // CL_COMPLETE (0) once the unmap has completed, else the error or the pending status.
  cl_int unmap();

 private:
  cl_command_queue queue_;
  cl_mem buffer_;
  void* pointer_ = nullptr;
  cl_int error_ = CL_SUCCESS;
};

}  // namespace native
}  // namespace xgpu::conform
