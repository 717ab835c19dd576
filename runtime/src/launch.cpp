// Queue::launch: every argument and the range are checked before anything is enqueued;
// then arguments are set and the kernel enqueued under the kernel's lock.
#include <array>
#include <string>
#include <vector>

#include "internals.hpp"
#include "queue_commands.hpp"
#include "signature.hpp"
#include "trace/hooks.hpp"
#include "xgpu/common/drivers/version.hpp"
#include "xgpu/queue.hpp"

namespace xgpu {
namespace {

// How long a program goes without launching a new work-group shape before it is saved:
// long enough to gather a typical program's first launches, short enough that a
// long-running process saves its work early.
constexpr std::chrono::milliseconds kSaveLaunchedAfter{300};

[[noreturn]] void bad_range(const Kernel& kernel, const std::string& why) {
  throw Error(Errc::invalid_range, "launch of kernel '" + kernel.name() + "': " + why,
              "Queue::launch");
}

// Why a partial last work-group cannot run, or empty when it can: the device must have
// non-uniform work-groups and the program be built for OpenCL C 2.0 or later without
// -cl-uniform-work-group-size. Read only when a launch has such a group (not per launch).
std::string no_partial_groups(const DeviceInfo& device, const std::string& options) {
  if (!device.non_uniform_work_groups) return "this device has no non-uniform work-groups";
  const bool opencl_c_2 = drivers::cl_std_version(options) >= drivers::Version{2, 0};
  if (!opencl_c_2 || options.find("-cl-uniform-work-group-size") != std::string::npos)
    return "non-uniform work-groups need a program built with -cl-std=CL2.0 or later";
  return {};
}

void check_ranges_in_full(const Kernel& kernel, const Launch& launch, const DeviceInfo& device,
                          const KernelLimits& limits, const std::string& program_options) {
  const Range& global = launch.global();
  if (global.dims < 1 || global.dims > 3) bad_range(kernel, "a range has 1 to 3 dimensions");
  if (launch.offset() && launch.offset()->dims != global.dims) {
    bad_range(kernel, "the offset has " + std::to_string(launch.offset()->dims) +
                          " dimension(s) and the global range " + std::to_string(global.dims));
  }
  if (!launch.local()) return;
  const Range& local = *launch.local();
  if (local.dims != global.dims) {
    bad_range(kernel, "the work-group size has " + std::to_string(local.dims) +
                          " dimension(s) and the global range " + std::to_string(global.dims));
  }
  for (unsigned d = 0; d < global.dims; ++d) {
    if (local.size[d] == 0)
      bad_range(kernel, "the work-group size is 0 in dimension " + std::to_string(d));
    // Whole groups only, unless the device and the program allow a partial last one
    // (OpenCL C 2.0): otherwise the caller rounds up and guards.
    if (global.size[d] % local.size[d] != 0) {
      const std::string why = no_partial_groups(device, program_options);
      if (!why.empty()) {
        bad_range(kernel, "the global size " + std::to_string(global.size[d]) + " in dimension " +
                              std::to_string(d) + " is not a multiple of the work-group size " +
                              std::to_string(local.size[d]) + " (" + why + ")");
      }
    }
    if (device.max_work_item_sizes[d] && local.size[d] > device.max_work_item_sizes[d]) {
      bad_range(kernel, "the work-group size " + std::to_string(local.size[d]) + " in dimension " +
                            std::to_string(d) + " exceeds the device's " +
                            std::to_string(device.max_work_item_sizes[d]));
    }
  }
  if (device.max_work_group_size && local.total() > device.max_work_group_size) {
    bad_range(kernel, "a work-group of " + std::to_string(local.total()) +
                          " items exceeds the device's maximum of " +
                          std::to_string(device.max_work_group_size));
  }
  // A kernel may allow fewer items than the device (its registers, its local memory): the
  // driver would refuse the enqueue with a bare status.
  if (limits.max_work_group_size && local.total() > limits.max_work_group_size) {
    bad_range(kernel, "a work-group of " + std::to_string(local.total()) +
                          " items exceeds this kernel's maximum of " +
                          std::to_string(limits.max_work_group_size) + " on " + device.name +
                          " (the device allows " + std::to_string(device.max_work_group_size) +
                          "; the kernel's own resources allow fewer)");
  }
}

// A global range alone, of 1 to 3 dimensions, needs nothing else checked: tested inline, before
// the call that would check a work-group size and an offset.
inline void check_ranges(const Kernel& kernel, const Launch& launch, const DeviceInfo& device,
                         const KernelLimits& limits, const std::string& program_options) {
  const unsigned dims = launch.global().dims;
  if (dims >= 1 && dims <= 3 && !launch.local() && !launch.offset()) return;
  check_ranges_in_full(kernel, launch, device, limits, program_options);
}

// The kernel's own local memory (its __local variables, read once per kernel) and the
// Local<T> arguments of this launch must fit the device's local memory together.
void check_local_memory(const Kernel& kernel, const KernelLimits& limits, std::uint64_t arguments,
                        const DeviceInfo& device) {
  const std::uint64_t total = limits.local_memory + arguments;
  if (device.local_memory == 0 || total <= device.local_memory) return;
  throw Error(Errc::allocation_too_large,
              "launch of kernel '" + kernel.name() + "': it needs " + std::to_string(total) +
                  " bytes of local memory (" + std::to_string(limits.local_memory) +
                  " of its own, " + std::to_string(arguments) +
                  " in Local<T> arguments), more than the " + std::to_string(device.local_memory) +
                  " bytes of " + device.name + "; nothing was enqueued",
              "Queue::launch");
}

// A by-value argument the driver refused (a struct of the wrong size: OpenCL reports no
// struct's size, so only the driver can tell). Named like the core's own argument errors,
// with the driver's word; nothing has been enqueued yet.
[[noreturn]] void refused_value(const detail::KernelState& state, std::size_t index,
                                const xgpu_kernel_arg_v1& arg, const detail::Module& module,
                                xgpu_status status) {
  const detail::Parameter* parameter = state.signature_known ? &state.parameters[index] : nullptr;
  std::string why = module.last_error();
  throw Error(Errc::argument_type,
              "kernel '" + state.name + "' argument " + std::to_string(index) +
                  (parameter ? " (" + parameter->name + ")" : "") + ": expects " +
                  (parameter ? parameter->type_name : std::string("a value")) +
                  " (OpenCL does not report a struct's size), got a value of " +
                  std::to_string(arg.size) +
                  " bytes, which the driver refused: " + module.status_name(status) +
                  (why.empty() ? "" : " (" + why + ")") + "; nothing was enqueued",
              "Queue::launch");
}

// True when this work-group shape is new to the program's cache entry. Called under the
// kernel's lock; after the first launch of a shape it costs one scan of a short vector.
bool note_shape(detail::KernelState& state, const Launch& launch) {
  std::array<std::size_t, 4> shape{launch.global().dims, 0, 0, 0};
  if (launch.local()) {
    for (unsigned d = 0; d < launch.local()->dims; ++d) shape[d + 1] = launch.local()->size[d];
  }
  for (const auto& seen : state.launched_shapes) {
    // Word by word: std::array's == calls memcmp, a third of this function's cost per launch.
    if (seen[0] == shape[0] && seen[1] == shape[1] && seen[2] == shape[2] && seen[3] == shape[3])
      return false;
  }
  state.launched_shapes.push_back(shape);
  std::string variant = state.name + "@" + std::to_string(shape[0]) + "d";
  if (launch.local()) {
    variant += ":" + std::to_string(shape[1]) + "x" + std::to_string(shape[2]) + "x" +
               std::to_string(shape[3]);
  }
  return state.program->ticket->add_variant(variant);
}

}  // namespace

namespace {

constexpr std::size_t kInlineArgs = 16;  // a launch with more arguments allocates
constexpr std::size_t kInlineWaits = 8;  // likewise for events to wait for

// Room for the module's view of a launch's arguments, on the stack unless there are many.
struct ArgSpace {
  explicit ArgSpace(std::size_t count) {
    if (count > kInlineArgs) {
      many_args.resize(count);
      many_converted.resize(count);
    }
    args = count > kInlineArgs ? many_args.data() : inline_args.data();
    converted = count > kInlineArgs ? many_converted.data() : inline_converted.data();
  }
  xgpu_kernel_arg_v1* args;
  std::uint64_t* converted;  ///< storage for integers converted to the parameter's type

 private:
  std::array<xgpu_kernel_arg_v1, kInlineArgs> inline_args;
  std::array<std::uint64_t, kInlineArgs> inline_converted;
  std::vector<xgpu_kernel_arg_v1> many_args;
  std::vector<std::uint64_t> many_converted;
};

// Checks and prepares every argument, in order, so that the first wrong one is reported.
// The checks against the signature run only when the arguments' pattern differs from the
// last one that passed, and for an argument whose check depends on its value. Under the
// kernel's lock (the pattern is per kernel).
void prepare_arguments(detail::KernelState& state, const detail::KernelArg* args, std::size_t count,
                       const void* types, const void* context, ArgSpace& space) {
  detail::ArgPattern& pattern = state.checked_args;
  if (pattern.matches(types) || pattern.matches(args, count, types)) {
    for (std::size_t i = 0; i < count; ++i) {
      detail::prepare_value(state, i, args[i], context, space.args[i]);
      if (pattern.converts(i))
        detail::check_against_signature(state, i, args[i], space.args[i], space.converted[i]);
    }
    return;
  }
  for (std::size_t i = 0; i < count; ++i)
    detail::prepare_argument(state, i, args[i], context, space.args[i], space.converted[i]);
  // Every check passed: remember the pattern, and which arguments were converted.
  pattern.record(args, count, types);
  for (std::size_t i = 0; i < count; ++i) {
    if (space.args[i].value == &space.converted[i]) pattern.mark_converted(i);
  }
}

[[noreturn]] void refused_argument(const detail::KernelState& state, std::uint32_t index,
                                   const detail::KernelArg& given, const xgpu_kernel_arg_v1& arg,
                                   const detail::Module& module, xgpu_status status,
                                   const detail::DeviceRecord* record) {
  if (given.kind == detail::ArgKind::bytes) refused_value(state, index, arg, module, status);
  std::string name = state.signature_known ? " (" + state.parameters[index].name + ")" : "";
  detail::throw_backend_error(
      module, status,
      "setting argument " + std::to_string(index) + name + " of kernel '" + state.name + "'",
      record);
}

struct RawLaunch {
  xgpu_queue queue;
  xgpu_kernel kernel;
  const std::size_t* offset;
  const std::size_t* local;
  const xgpu_wait_v1* wait;
  xgpu_event* event;
};

// Modules that predate kernel_launch_with_args: one ABI call per argument, then the launch.
xgpu_status launch_argument_by_argument(const detail::Module& module, const RawLaunch& raw,
                                        const Range& global, const detail::KernelState& state,
                                        const detail::KernelArg* given,
                                        const xgpu_kernel_arg_v1* args, std::uint32_t count,
                                        const detail::DeviceRecord* record) {
  for (std::uint32_t i = 0; i < count; ++i) {
    const xgpu_kernel_arg_v1& arg = args[i];
    xgpu_status status;
    switch (arg.kind) {
      case XGPU_KERNEL_ARG_BUFFER:
        status = module.table->kernel_set_arg_buffer(raw.kernel, i, arg.buffer);
        break;
      case XGPU_KERNEL_ARG_LOCAL:
        status = module.table->kernel_set_arg_local(raw.kernel, i, arg.size);
        break;
      default:
        status = module.table->kernel_set_arg(raw.kernel, i, arg.size, arg.value);
    }
    if (status != XGPU_STATUS_SUCCESS)
      refused_argument(state, i, given[i], arg, module, status, record);
  }
  // Such modules were always given somewhere to put the event: one not kept is released.
  xgpu_event unkept = nullptr;
  const xgpu_status status = module.table->kernel_launch(
      raw.queue, raw.kernel, global.dims, raw.offset, global.size.data(), raw.local, raw.wait,
      raw.event != nullptr ? raw.event : &unkept);
  if (unkept != nullptr) detail::release_object(&module, detail::ObjectKind::event, unkept);
  return status;
}

// One ABI call for the arguments and the launch; the module names a refused argument.
xgpu_status launch_in_one_call(const detail::Module& module, const RawLaunch& raw,
                               const Range& global, const detail::KernelState& state,
                               const detail::KernelArg* given, const xgpu_kernel_arg_v1* args,
                               std::uint32_t count, const detail::DeviceRecord* record) {
  std::uint32_t failed = count;
  xgpu_status status = module.table->kernel_launch_with_args(
      raw.queue, raw.kernel, count, args, global.dims, raw.offset, global.size.data(), raw.local, 0,
      raw.wait, raw.event, &failed);
  if (status != XGPU_STATUS_SUCCESS && failed < count)
    refused_argument(state, failed, given[failed], args[failed], module, status, record);
  return status;
}

bool any_pooled(const detail::KernelArg* args, std::size_t count) noexcept {
  for (std::size_t i = 0; i < count; ++i) {
    if (args[i].buffer != nullptr && detail::touches_pool(detail::Internals::core(*args[i].buffer)))
      return true;
  }
  return false;
}

// Before the launch: a buffer whose block came from a user that may still run is ordered after
// it. detail::before_command() for every buffer, with the thread's queue noted once.
void before_pooled_launch(const detail::KernelArg* args, std::size_t count,
                          const detail::Module& module, void* queue) {
  detail::set_last_queue_of_this_thread(queue);
  for (std::size_t i = 0; i < count; ++i) {
    if (args[i].buffer != nullptr)
      detail::order_after_previous_user(detail::Internals::core(*args[i].buffer), module, queue);
  }
}

void note_pooled_use(const detail::KernelArg* args, std::size_t count, const detail::Module& module,
                     void* queue) {
  for (std::size_t i = 0; i < count; ++i) {
    if (args[i].buffer != nullptr && detail::touches_pool(detail::Internals::core(*args[i].buffer)))
      detail::Internals::core(*args[i].buffer).allocation->note_use(&module, queue);
  }
}

}  // namespace

Event Queue::launch_described(const Kernel& kernel, const Launch& launch,
                              const detail::KernelArg* args, std::size_t count, const void* types,
                              bool keep_event) {
  auto& state = const_cast<detail::KernelState&>(
      detail::state_of(detail::Internals::state(kernel), "Kernel"));
  if (!*this) throw Error(Errc::invalid_handle, "launch on an empty Queue", "Queue::launch");
  const auto& context = *detail::Internals::state(context_);
  if (state.program->context.get() != context.handle.get()) {
    throw Error(Errc::context_mismatch,
                "kernel '" + state.name + "' was built in another context than the queue's",
                "Queue::launch");
  }
  if (count != state.arg_count) {
    throw Error(Errc::argument_count,
                "kernel '" + state.name + "' takes " + std::to_string(state.arg_count) +
                    " argument(s), got " + std::to_string(count),
                "Queue::launch");
  }
  const DeviceInfo& device = context.record->info;
  check_ranges(kernel, launch, device, state.limits, state.program->options);

  std::array<xgpu_event, kInlineWaits> inline_wait;
  std::vector<xgpu_event> many_wait;
  const std::vector<Event>& events = launch.wait_list();
  if (events.size() > kInlineWaits) many_wait.resize(events.size());
  xgpu_event* wait = events.size() > kInlineWaits ? many_wait.data() : inline_wait.data();
  std::uint32_t waits = 0;
  for (const Event& event : events) {
    if (event) wait[waits++] = static_cast<xgpu_event>(event.raw());
  }
  const xgpu_wait_v1 wait_list{wait, waits};

  const detail::Module& module = context.module();
  xgpu_event event = nullptr;
  RawLaunch raw{static_cast<xgpu_queue>(handle_.get()),
                static_cast<xgpu_kernel>(state.handle.get()),
                launch.offset() ? launch.offset()->size.data() : nullptr,
                launch.local() ? launch.local()->size.data() : nullptr,
                waits == 0 ? nullptr : &wait_list,
                nullptr};
  ArgSpace space(count);
  bool new_variant = false;
  bool pooled = false;    // a pooled buffer is an argument: its allocation notes the event
  double traced_at = -1;  // when the enqueue began, for the trace; negative: not tracing
  {
    std::lock_guard<detail::LaunchLock> lock(state.launch_lock);
    prepare_arguments(state, args, count, types, context.handle.get(), space);
    std::uint64_t local_arguments = 0;
    for (std::size_t i = 0; i < count; ++i) {
      if (space.args[i].kind == XGPU_KERNEL_ARG_LOCAL) local_arguments += space.args[i].size;
    }
    if (local_arguments != 0 || state.limits.local_memory != 0)
      check_local_memory(kernel, state.limits, local_arguments, device);
    if (launch.global().total() == 0) return Event();  // nothing to run, as for an empty buffer

    if (state.program->ticket) new_variant = note_shape(state, launch);
    // The cache needs the event of a launch with a new shape, to save after it; otherwise the
    // driver is asked for one only when the caller keeps it. A pooled buffer needs none: its
    // allocation notes the queue, and asks it for a marker when the buffer goes.
    pooled = any_pooled(args, count);
    if (pooled) before_pooled_launch(args, count, module, handle_.get());
    traced_at = detail::trace::active() ? detail::trace::now_us() : -1;
    raw.event = keep_event || new_variant || traced_at >= 0 ? &event : nullptr;
    const auto arg_count = static_cast<std::uint32_t>(count);
    xgpu_status status =
        module.has(&xgpu_backend_v1::kernel_launch_with_args)
            ? launch_in_one_call(module, raw, launch.global(), state, args, space.args, arg_count,
                                 context.record)
            : launch_argument_by_argument(module, raw, launch.global(), state, args, space.args,
                                          arg_count, context.record);
    if (status != XGPU_STATUS_SUCCESS) {
      detail::throw_backend_error(module, status, "launching kernel '" + state.name + "'",
                                  context.record);
    }
  }
  if (event == nullptr) {  // a submit: no Event to make
    if (pooled) note_pooled_use(args, count, module, handle_.get());
    return Event();
  }
  Event done =
      detail::Internals::event(detail::Handle<detail::ObjectKind::event>::adopt(&module, event),
                               "kernel", context.record, detail::Internals::state(kernel));
  detail::note_command(*this, done);  // for Queue::finish to name it if it fails
  // After the Event owns it: a note that throws must not leak the driver's event.
  if (pooled) note_pooled_use(args, count, module, handle_.get());
  if (traced_at >= 0) detail::trace::launch(*this, state.name, launch, traced_at, done);
  // The cached binary lacks this launch's code (PoCL compiles per work-group size at the
  // first launch): save the program again once this launch is done.
  if (new_variant) {
    detail::KernelCache::instance().schedule(state.program->ticket, done, kSaveLaunchedAfter);
  }
  if (!keep_event) return Event();
  return done;  // moved: a copy would cost the driver a retain and a release
}

}  // namespace xgpu
