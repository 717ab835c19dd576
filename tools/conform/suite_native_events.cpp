// The events suite's checks of user events, markers and event callbacks, made through
// xgpu's OpenCL interop (xgpu/opencl.hpp) on xgpu's own context and queue because xgpu's own
// API offers none of them; shared plumbing in native.hpp.
#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "native.hpp"

namespace xgpu::conform {
namespace {

using namespace native;
using namespace std::chrono_literals;

std::vector<int> numbered(std::size_t n) { return int_pattern(n, 1, 1); }

// Source and target buffers for a copy: target starts at zeros.
struct CopyBuffers {
  Buffer<int> source, target;
  std::size_t bytes;
};
CopyBuffers copy_buffers(Env& env, std::size_t n) {
  CopyBuffers buffers{env.context().alloc<int>(n), env.context().alloc<int>(n), n * sizeof(int)};
  env.queue().write(buffers.source, numbered(n));
  env.queue().write(buffers.target, std::vector<int>(n, 0));
  return buffers;
}

// Enqueues the copy source -> target on the Env's queue, after `gate`; a failure names the
// gate or the copy that could not be made.
Result enqueue_gated_copy(const Native& cl, const CopyBuffers& buffers, const Gate& gate,
                          EventObject& copied) {
  if (gate.error() != CL_SUCCESS)
    return fail_expected("clCreateUserEvent", "CL_SUCCESS", status_name(gate.error()));
  cl_event raw = nullptr;
  const cl_int error =
      clEnqueueCopyBuffer(cl.queue, opencl::buffer(buffers.source), opencl::buffer(buffers.target),
                          0, 0, buffers.bytes, 1, gate.get(), &raw);
  copied = EventObject(raw);
  if (error != CL_SUCCESS)
    return fail_expected("clEnqueueCopyBuffer after a user event", "CL_SUCCESS",
                         status_name(error));
  return pass();
}

// Lets a driver that would (wrongly) run a gated command do so now.
void give_it_a_chance(const Native& cl) {
  if (!cl.flush_waits) clFlush(cl.queue);
  std::this_thread::sleep_for(kGrace);
}

bool pending(cl_int status) { return status == CL_QUEUED || status == CL_SUBMITTED; }

// Finishes a queue when it goes out of scope, before host memory its commands write is freed.
struct FinishOnExit {
  cl_command_queue queue;
  ~FinishOnExit() { clFinish(queue); }
};

// A copy waiting on a user event does not run until the event is set to CL_COMPLETE; the
// statuses go from CL_SUBMITTED (user event) and queued/submitted (copy) to CL_COMPLETE.
Result user_event_gates(Env& env) {
  if (!on_opencl(env)) return skip(kNeedsOpenCL);
  const Native cl = native_of(env);
  const std::size_t n = env.size(4096, 256);
  const CopyBuffers buffers = copy_buffers(env, n);
  Queue other = env.context().queue();
  const cl_command_queue other_queue = opencl::queue(other);
  std::vector<int> early(n, -1);
  // Destroyed in reverse: the gate opens, then the read into `early` is waited for.
  const FinishOnExit finish_other{other_queue};
  EventObject copied, early_read;
  Gate gate(cl.context);
  if (gate.error() != CL_SUCCESS)
    return fail_expected("clCreateUserEvent", "CL_SUCCESS", status_name(gate.error()));
  cl_int status = execution_status(*gate.get());
  if (status != CL_SUBMITTED)
    return fail_expected("status of a new user event", "CL_SUBMITTED", execution_name(status));
  const Result enqueued = enqueue_gated_copy(cl, buffers, gate, copied);
  if (enqueued.outcome != Outcome::pass) return enqueued;
  give_it_a_chance(cl);
  status = execution_status(copied.get());
  if (!pending(status))
    return fail_expected("status of a copy waiting on an unset user event",
                         "CL_QUEUED or CL_SUBMITTED", execution_name(status));
  // Read the target on another queue: it must still hold zeros. A driver may order that read
  // after the pending copy; then it completes only once the gate opens, and proves nothing.
  cl_event raw = nullptr;
  cl_int read_error = clEnqueueReadBuffer(other_queue, opencl::buffer(buffers.target), CL_FALSE, 0,
                                          buffers.bytes, early.data(), 0, nullptr, &raw);
  early_read = EventObject(raw);
  if (read_error != CL_SUCCESS)
    return fail_expected("clEnqueueReadBuffer on a second queue", "CL_SUCCESS",
                         status_name(read_error));
  const auto end = Clock::now() + 1s;
  cl_int read_status = CL_QUEUED;
  while (pending(read_status = execution_status(early_read.get())) && Clock::now() < end) {
    clFlush(other_queue);
    std::this_thread::sleep_for(1ms);
  }
  const bool read_early = read_status == CL_COMPLETE;
  if (read_early) {
    const std::vector<int> zeros(n, 0);
    const Result unchanged =
        compare_ints("target of a copy waiting on an unset user event", zeros, early.data());
    if (unchanged.outcome != Outcome::pass) return unchanged;
  }
  const cl_int opened = gate.open();
  if (opened != CL_SUCCESS)
    return fail_expected("clSetUserEventStatus(CL_COMPLETE)", "CL_SUCCESS", status_name(opened));
  status = execution_status(*gate.get());
  if (status != CL_COMPLETE)
    return fail_expected("status of the user event once set", "CL_COMPLETE",
                         execution_name(status));
  status = wait_until_done(copied.get(), cl.queue);
  if (status != CL_COMPLETE)
    return fail_expected("status of the copy once its user event was set", "CL_COMPLETE",
                         not_done(status));
  status = wait_until_done(early_read.get(), other_queue);
  if (status != CL_COMPLETE)
    return fail_expected("status of the read on the second queue", "CL_COMPLETE", not_done(status));
  const std::vector<int> got = env.queue().read(buffers.target);
  return compare_ints("target once the user event was set", numbered(n), got.data());
}

// A marker completes only after every earlier command of its queue: here a copy waiting on
// a user event. A marker on an idle queue completes.
Result marker_after_earlier(Env& env) {
  if (!on_opencl(env)) return skip(kNeedsOpenCL);
  const Native cl = native_of(env);
  if (cl.version < drivers::Version{1, 2})
    return skip("needs OpenCL 1.2 (clEnqueueMarkerWithWaitList)");
  const std::size_t n = env.size(4096, 256);
  const CopyBuffers buffers = copy_buffers(env, n);
  EventObject copied, marker, idle_marker;
  {
    Gate gate(cl.context);
    const Result enqueued = enqueue_gated_copy(cl, buffers, gate, copied);
    if (enqueued.outcome != Outcome::pass) return enqueued;
    cl_event raw = nullptr;
    cl_int error = clEnqueueMarkerWithWaitList(cl.queue, 0, nullptr, &raw);
    marker = EventObject(raw);
    if (error != CL_SUCCESS)
      return fail_expected("clEnqueueMarkerWithWaitList", "CL_SUCCESS", status_name(error));
    give_it_a_chance(cl);
    const cl_int status = execution_status(marker.get());
    if (!pending(status))
      return fail_expected("status of a marker behind a copy waiting on an unset user event",
                           "CL_QUEUED or CL_SUBMITTED", execution_name(status));
    error = gate.open();
    if (error != CL_SUCCESS)
      return fail_expected("clSetUserEventStatus(CL_COMPLETE)", "CL_SUCCESS", status_name(error));
  }
  cl_int status = wait_until_done(marker.get(), cl.queue);
  if (status != CL_COMPLETE)
    return fail_expected("status of the marker once the user event was set", "CL_COMPLETE",
                         not_done(status));
  status = execution_status(copied.get());
  if (status != CL_COMPLETE)
    return fail_expected("status of the copy before the marker, once the marker completed",
                         "CL_COMPLETE", execution_name(status));
  const std::vector<int> got = env.queue().read(buffers.target);
  const Result copied_right =
      compare_ints("target of the copy before the marker", numbered(n), got.data());
  if (copied_right.outcome != Outcome::pass) return copied_right;
  cl_event raw = nullptr;
  const cl_int error = clEnqueueMarkerWithWaitList(cl.queue, 0, nullptr, &raw);
  idle_marker = EventObject(raw);
  if (error != CL_SUCCESS)
    return fail_expected("clEnqueueMarkerWithWaitList on an idle queue", "CL_SUCCESS",
                         status_name(error));
  status = wait_until_done(idle_marker.get(), cl.queue);
  if (status != CL_COMPLETE)
    return fail_expected("status of a marker on an idle queue", "CL_COMPLETE", not_done(status));
  return pass();
}

// What an event callback saw. Records live for the process (lasting_record): a driver may
// call back late, or twice, after the check has given up.
struct CallbackRecord {
  std::atomic<int> calls{0};
  std::atomic<cl_int> status{CL_QUEUED};
};

void CL_CALLBACK on_event(cl_event, cl_int status, void* data) {
  auto* record = static_cast<CallbackRecord*>(data);
  record->status = status;
  ++record->calls;
}

// Waits (flushing `queue`) until the record has been called at least once, for `patience`.
bool called_back(const CallbackRecord& record, cl_command_queue queue,
                 Clock::duration patience = kDeadline) {
  const auto end = Clock::now() + patience;
  while (record.calls == 0 && Clock::now() < end) {
    clFlush(queue);
    std::this_thread::sleep_for(1ms);
  }
  return record.calls > 0;
}

struct Callback {
  const char* what;
  const CallbackRecord& record;
};

// Each callback was called exactly once (given time for a wrong second call), with CL_COMPLETE.
Result called_once(const std::vector<Callback>& callbacks, cl_command_queue queue) {
  for (const Callback& callback : callbacks) {
    if (!called_back(callback.record, queue))
      return fail_expected(
          std::string(callback.what) + ", calls within " + std::to_string(kDeadline.count()) + " s",
          1, 0);
  }
  std::this_thread::sleep_for(kGrace);
  for (const Callback& callback : callbacks) {
    if (callback.record.calls != 1)
      return fail_expected(std::string(callback.what) + ", calls", 1, callback.record.calls.load());
    if (callback.record.status != CL_COMPLETE)
      return fail_expected(std::string(callback.what) + ", status passed", "CL_COMPLETE",
                           execution_name(callback.record.status));
  }
  return pass();
}

// CL_COMPLETE callbacks set on a copy waiting on a user event, and on the user event, are not
// called before it is set, then exactly once each with CL_COMPLETE.
Result callbacks_on_completion(Env& env) {
  if (!on_opencl(env)) return skip(kNeedsOpenCL);
  const Native cl = native_of(env);
  const CopyBuffers buffers = copy_buffers(env, env.size(1024, 64));
  CallbackRecord& on_copy = lasting_record<CallbackRecord>();
  CallbackRecord& on_gate = lasting_record<CallbackRecord>();
  EventObject copied;
  Gate gate(cl.context);
  const Result enqueued = enqueue_gated_copy(cl, buffers, gate, copied);
  if (enqueued.outcome != Outcome::pass) return enqueued;
  cl_int error = clSetEventCallback(copied.get(), CL_COMPLETE, on_event, &on_copy);
  if (error != CL_SUCCESS)
    return fail_expected("clSetEventCallback on a pending copy", "CL_SUCCESS", status_name(error));
  error = clSetEventCallback(*gate.get(), CL_COMPLETE, on_event, &on_gate);
  if (error != CL_SUCCESS)
    return fail_expected("clSetEventCallback on a user event", "CL_SUCCESS", status_name(error));
  give_it_a_chance(cl);
  if (on_copy.calls != 0 || on_gate.calls != 0)
    return fail_expected("callbacks called before the user event was set", 0,
                         on_copy.calls + on_gate.calls);
  error = gate.open();
  if (error != CL_SUCCESS)
    return fail_expected("clSetUserEventStatus(CL_COMPLETE)", "CL_SUCCESS", status_name(error));
  const cl_int status = wait_until_done(copied.get(), cl.queue);
  if (status != CL_COMPLETE)
    return fail_expected("status of the copy once its user event was set", "CL_COMPLETE",
                         not_done(status));
  return called_once({{"the callback set on the pending copy", on_copy},
                      {"the callback set on the user event", on_gate}},
                     cl.queue);
}

// A CL_COMPLETE callback set on a command that has already completed is still called, once.
Result callback_after_completion(Env& env) {
  if (!on_opencl(env)) return skip(kNeedsOpenCL);
  const Native cl = native_of(env);
  const CopyBuffers buffers = copy_buffers(env, env.size(1024, 64));
  cl_event raw = nullptr;
  cl_int error =
      clEnqueueCopyBuffer(cl.queue, opencl::buffer(buffers.source), opencl::buffer(buffers.target),
                          0, 0, buffers.bytes, 0, nullptr, &raw);
  const EventObject copied(raw);
  if (error != CL_SUCCESS)
    return fail_expected("clEnqueueCopyBuffer", "CL_SUCCESS", status_name(error));
  const cl_int status = wait_until_done(copied.get(), cl.queue);
  if (status != CL_COMPLETE)
    return fail_expected("status of the copy", "CL_COMPLETE", not_done(status));
  CallbackRecord& late = lasting_record<CallbackRecord>();
  error = clSetEventCallback(copied.get(), CL_COMPLETE, on_event, &late);
  if (error != CL_SUCCESS)
    return fail_expected("clSetEventCallback on a completed copy", "CL_SUCCESS",
                         status_name(error));
  // Where the deviation is known, a short wait tells whether it is still there.
  const std::string reason = known_deviation(env);
  if (!reason.empty() && !called_back(late, cl.queue, 200ms)) return skip(reason);
  return called_once({{"the callback set after the copy completed", late}}, cl.queue);
}

}  // namespace

void register_native_events(Registry& registry) {
  registry.add("events", "user_event_gates_commands", "", user_event_gates);
  registry.add("events", "marker_after_earlier_commands", "", marker_after_earlier);
  registry.add("events", "callbacks_on_completion", "", callbacks_on_completion);
  registry.add("events", "callback_after_completion", "", callback_after_completion);
}

}  // namespace xgpu::conform
