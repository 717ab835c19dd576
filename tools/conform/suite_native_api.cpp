// The api suite's checks of the native reference counts behind xgpu's handles, made through
// xgpu's OpenCL interop (xgpu/opencl.hpp) because xgpu's own API does not show reference
// counts; shared plumbing in native.hpp.
//
// What xgpu does (runtime/include/xgpu/handle.hpp and the class comments): Queue, Buffer and
// Event hold a Handle each, so a copy adds exactly one native reference and a move steals
// it; Context, Program and Kernel copies share one state (std::shared_ptr), so a copy adds
// no native reference at all. Programs and kernels give no native handle; they are seen
// through the context they keep alive.
#include <functional>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>
#include <xgpu/interop.hpp>

#include "native.hpp"

namespace xgpu::conform {
namespace {

using namespace native;
using namespace std::chrono_literals;

// The *_info parameter types are all cl_uint.
template <class Handle>
long reference_count(cl_int(CL_API_CALL* query)(Handle, cl_uint, std::size_t, void*, std::size_t*),
                     Handle handle, cl_uint param, const char* name) {
  cl_uint count = 0;
  const cl_int error = query(handle, param, sizeof count, &count, nullptr);
  if (error != CL_SUCCESS) throw std::runtime_error(std::string(name) + ": " + status_name(error));
  return static_cast<long>(count);
}

std::string delta_text(long delta) { return (delta >= 0 ? "+" : "") + std::to_string(delta); }

// One moment of a copy scenario: what had been done, and the count then.
struct Step {
  std::string what;
  long expected_delta;
  long count;
};
using Mark = std::function<void(const std::string& what, long expected_delta)>;

// Runs `scenario` (which makes copies, marks the count while they live, and lets them go)
// and checks each mark against the count before it, and the count after it. A driver may
// hold references of its own for a moment after a command (PoCL drops an event's on its
// worker thread), so a run whose figures are off is measured again for up to kDeadline.
Result balanced(const std::string& object, const std::function<long()>& count,
                const std::function<void(const Mark&)>& scenario) {
  const auto end = Clock::now() + kDeadline;
  for (;;) {
    const long before = count();
    std::vector<Step> steps;
    scenario([&](const std::string& what, long delta) { steps.push_back({what, delta, count()}); });
    const long after = count();
    bool right = after == before;
    for (const Step& step : steps) right = right && step.count - before == step.expected_delta;
    if (right) return pass();
    if (Clock::now() < end) {
      std::this_thread::sleep_for(5ms);
      continue;
    }
    for (const Step& step : steps) {
      if (step.count - before != step.expected_delta)
        return fail_expected(object + " after " + step.what, delta_text(step.expected_delta),
                             delta_text(step.count - before));
    }
    return fail_expected(object + " once the copies were gone", before, after);
  }
}

const char* const kTouchSource = R"(
kernel void touch(global int* data) { data[get_global_id(0)] += 1; }
)";

Result copies_balance(Env& env) {
  if (!on_opencl(env)) return skip(kNeedsOpenCL);
  quiet_cache();
  const cl_context context = opencl::context(env.context());
  const auto context_count = [&] {
    return reference_count(clGetContextInfo, context, CL_CONTEXT_REFERENCE_COUNT,
                           "CL_CONTEXT_REFERENCE_COUNT");
  };
  Result result = balanced("CL_CONTEXT_REFERENCE_COUNT", context_count, [&](const Mark& mark) {
    Context copy = env.context();
    mark("a Context copy (copies share one native context)", 0);
    Context another = copy;
    mark("a copy of that copy", 0);
    Context moved = std::move(another);
    mark("a move of it", 0);
  });
  if (result.outcome != Outcome::pass) return result;

  Queue queue = env.context().queue();
  const cl_command_queue queue_handle = opencl::queue(queue);
  result = balanced(
      "CL_QUEUE_REFERENCE_COUNT",
      [&] {
        return reference_count(clGetCommandQueueInfo, queue_handle, CL_QUEUE_REFERENCE_COUNT,
                               "CL_QUEUE_REFERENCE_COUNT");
      },
      [&](const Mark& mark) {
        Queue copy = queue;
        mark("a Queue copy (each copy holds one reference)", 1);
        Queue another = copy;
        mark("a second copy", 2);
        Queue moved = std::move(another);
        mark("a move of the second copy (a move steals)", 2);
      });
  if (result.outcome != Outcome::pass) return result;

  Buffer<int> buffer = env.context().alloc<int>(64);
  const cl_mem mem = opencl::buffer(buffer);
  result = balanced(
      "CL_MEM_REFERENCE_COUNT",
      [&] {
        return reference_count(clGetMemObjectInfo, mem, CL_MEM_REFERENCE_COUNT,
                               "CL_MEM_REFERENCE_COUNT");
      },
      [&](const Mark& mark) {
        Buffer<int> copy = buffer;
        mark("a Buffer copy", 1);
        Buffer<int> moved = std::move(copy);
        mark("a move of the copy", 1);
        Buffer<int> assigned;
        assigned = buffer;
        mark("a copy assignment", 2);
        assigned = std::move(moved);
        mark("a move assignment over that copy (one reference dropped)", 1);
      });
  if (result.outcome != Outcome::pass) return result;

  Event filled = env.queue().fill(buffer, 0);
  filled.wait();
  const cl_event event = static_cast<cl_event>(interop::native(filled));
  result = balanced(
      "CL_EVENT_REFERENCE_COUNT",
      [&] {
        return reference_count(clGetEventInfo, event, CL_EVENT_REFERENCE_COUNT,
                               "CL_EVENT_REFERENCE_COUNT");
      },
      [&](const Mark& mark) {
        Event copy = filled;
        mark("an Event copy", 1);
        Event moved = std::move(copy);
        mark("a move of the copy", 1);
        Event another = moved;
        mark("a copy of the moved one", 2);
      });
  if (result.outcome != Outcome::pass) return result;

  const Program program = env.program("conform_native_touch.cl", kTouchSource);
  const Kernel kernel = program.kernel("touch");
  quiet_cache();  // the build may have left a save pending, which holds the program
  return balanced("CL_CONTEXT_REFERENCE_COUNT", context_count, [&](const Mark& mark) {
    Program copy = program;
    mark("a Program copy (copies share one program)", 0);
    Kernel kernel_copy = kernel;
    mark("a Kernel copy (copies share one kernel)", 0);
  });
}

// Everything xgpu makes on a context holds (through the driver) a reference to the native
// context: queues, buffers, programs, kernels, events. Once every xgpu object of a fresh
// Context is gone, only this check's own reference may remain.
Result everything_released(Env& env) {
  if (!on_opencl(env)) return skip(kNeedsOpenCL);
  quiet_cache();
  ContextReference held;
  {
    Context context(env.device());
    const cl_context native = opencl::context(context);
    const cl_int error = clRetainContext(native);
    if (error != CL_SUCCESS)
      return fail_expected("clRetainContext", "CL_SUCCESS", status_name(error));
    held = ContextReference(native);
    Queue queue = context.queue({true});
    Buffer<int> buffer = context.alloc<int>(64);
    queue.write(buffer, std::vector<int>(64, 1));
    Program program = context.build(Source{"conform_native_touch.cl", kTouchSource});
    Kernel kernel = program.kernel("touch");
    Event launched = queue.launch(kernel, Range{64}, buffer);
    Event copy = launched;
    Program program_copy = program;
    Kernel kernel_copy = program_copy.kernel("touch");
    Buffer<int> buffer_copy = buffer;
    Queue queue_copy = queue;
    queue_copy.launch(kernel_copy, Range{64}, buffer_copy).wait();
    const std::vector<int> got = queue.read(buffer);
    if (got[0] != 3) return fail_expected("element 0 after two launches of touch", 3, got[0]);
  }
  // The kernel cache's writer keeps a program it has still to save; let it finish.
  quiet_cache();
  const auto end = Clock::now() + kDeadline;
  long count = 0;
  for (;;) {
    count = reference_count(clGetContextInfo, held.get(), CL_CONTEXT_REFERENCE_COUNT,
                            "CL_CONTEXT_REFERENCE_COUNT");
    if (count == 1 || Clock::now() >= end) break;
    std::this_thread::sleep_for(5ms);
  }
  if (count != 1)
    return fail_expected(
        "CL_CONTEXT_REFERENCE_COUNT once every xgpu object of the context is gone (a queue, "
        "buffers, a program, kernels and events were made)",
        "1 (this check's own reference)", count);
  return pass();
}

}  // namespace

void register_native_api(Registry& registry) {
  registry.add("api", "retain_release_copies", "", copies_balance);
  registry.add("api", "retain_release_all_released", "", everything_released);
}

}  // namespace xgpu::conform
