// The entries that reach the inner module: handles pass through unchanged, a profile device
// becomes its backing device, and the entries where a limit applies check it first
// (enforce.hpp). Entries with nothing to add are the inner module's own, put straight in the
// table (entry.cpp).
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "enforce.hpp"
#include "entries.hpp"
#include "inner_module.hpp"
#include "object_table.hpp"
#include "xgpu/common/errors.hpp"
#include "xgpu/common/out_param.hpp"

namespace xgpu::profile {
namespace {

using common::guard;

// A new object's handle is noted only when the inner call made one.
template <class Handle>
xgpu_status made(xgpu_status status, Handle* handle, ProfileDevice& device, std::uint64_t bytes = 0,
                 void* parent = nullptr) {
  if (status == XGPU_STATUS_SUCCESS && handle && *handle) track(*handle, device, bytes, parent);
  return pass(status);
}

// The text of a build this module refused before the driver saw it, by program: the core
// reads a failed build's log, and the driver has none.
std::mutex g_refusals_mutex;
std::map<xgpu_program, std::string> g_refusals;

void note_refusal(xgpu_program program, const std::string* text) {
  std::lock_guard<std::mutex> lock(g_refusals_mutex);
  if (text)
    g_refusals[program] = *text;
  else
    g_refusals.erase(program);
}

// Which arguments are __constant (or __local, __global): from the driver's argument info, which
// the core always builds for (-cl-kernel-arg-info). Empty when any answer is missing.
std::vector<std::uint64_t> read_arg_spaces(xgpu_kernel kernel) {
  std::uint32_t count = 0;
  if (!inner().kernel_arg_count || !inner().kernel_arg_info ||
      inner().kernel_arg_count(kernel, &count) != XGPU_STATUS_SUCCESS)
    return {};
  std::vector<std::uint64_t> spaces(count);
  for (std::uint32_t i = 0; i < count; ++i) {
    std::size_t size = 0;
    if (inner().kernel_arg_info(kernel, i, XGPU_ARG_ADDRESS_SPACE, &spaces[i], sizeof spaces[i],
                                &size) != XGPU_STATUS_SUCCESS)
      return {};
  }
  return spaces;
}

}  // namespace

xgpu_status retain(uint32_t kind, void* object) {
  return guard([&] {
    if (kind == XGPU_OBJECT_DEVICE) return XGPU_STATUS_SUCCESS;  // profile devices never die
    const xgpu_status status = pass(inner().retain(kind, object));
    if (status == XGPU_STATUS_SUCCESS) note_retain(object);
    return status;
  });
}

xgpu_status release(uint32_t kind, void* object) {
  return guard([&] {
    if (kind == XGPU_OBJECT_DEVICE) return XGPU_STATUS_SUCCESS;
    // Forgotten first: once the driver frees it, another thread's create may get the same
    // address, and its fresh entry must not be the one erased.
    note_release(object);
    return pass(inner().release(kind, object));
  });
}

xgpu_status native_handle(uint32_t kind, void* object, void** native) {
  return guard([&] {
    if (!inner().native_handle) return XGPU_STATUS_UNSUPPORTED;
    // Interop sees the real device: the profile is this module's pretence, not the driver's.
    if (kind == XGPU_OBJECT_DEVICE) object = profile_of(static_cast<xgpu_device>(object)).backing;
    return pass(inner().native_handle(kind, object, native));
  });
}

xgpu_status context_create(xgpu_device device, xgpu_context* context) {
  return guard([&] {
    ProfileDevice& profile = profile_of(device);
    return made(inner().context_create(profile.backing, context), context, profile);
  });
}

xgpu_status queue_create(xgpu_context context, xgpu_device device, uint32_t flags,
                         xgpu_queue* queue) {
  return guard([&] {
    ProfileDevice& profile = profile_of(device);
    return made(inner().queue_create(context, profile.backing, flags, queue), queue, profile);
  });
}

xgpu_status buffer_create(xgpu_context context, uint32_t flags, size_t size, xgpu_buffer* buffer) {
  return guard([&] {
    ProfileDevice& profile = device_of(context, "context");
    reserve_allocation(profile, size);
    const xgpu_status status = inner().buffer_create(context, flags, size, buffer);
    if (status != XGPU_STATUS_SUCCESS) release_allocation(profile, size);
    const xgpu_status result = made(status, buffer, profile, size);
    if (result == XGPU_STATUS_SUCCESS) note_buffer_size(*buffer, size);
    return result;
  });
}

xgpu_status buffer_create_sub(xgpu_buffer parent, uint32_t flags, size_t offset, size_t size,
                              xgpu_buffer* buffer) {
  return guard([&] {
    ProfileDevice& profile = device_of(parent, "buffer");
    if (!inner().buffer_create_sub) return XGPU_STATUS_UNSUPPORTED;
    const xgpu_status status = made(inner().buffer_create_sub(parent, flags, offset, size, buffer),
                                    buffer, profile, 0, parent);
    if (status == XGPU_STATUS_SUCCESS) note_buffer_size(*buffer, size);
    return status;
  });
}

xgpu_status program_create(xgpu_context context, const char* source, size_t length,
                           xgpu_program* program) {
  return guard([&] {
    ProfileDevice& profile = device_of(context, "context");
    std::string text = source_prelude(profile);
    text.append(source, length);
    return made(inner().program_create(context, text.c_str(), text.size(), program), program,
                profile);
  });
}

xgpu_status program_build(xgpu_program program, xgpu_device device, const char* options) {
  return guard([&] {
    ProfileDevice& profile = profile_of(device);
    std::string checked;
    try {
      checked = build_options(profile, options);
    } catch (const common::Failure&) {
      note_refusal(program, &common::last_error_text());
      throw;
    }
    note_refusal(program, nullptr);
    return pass(inner().program_build(program, profile.backing, checked.c_str()));
  });
}

xgpu_status program_build_log(xgpu_program program, xgpu_device device, char* buffer,
                              size_t capacity, size_t* size_ret) {
  return guard([&] {
    {
      std::lock_guard<std::mutex> lock(g_refusals_mutex);
      auto refused = g_refusals.find(program);
      if (refused != g_refusals.end()) {
        common::copy_out(common::bytes_of_string(refused->second), buffer, capacity, size_ret);
        return XGPU_STATUS_SUCCESS;
      }
    }
    return pass(
        inner().program_build_log(program, profile_of(device).backing, buffer, capacity, size_ret));
  });
}

xgpu_status kernel_create(xgpu_program program, const char* name, xgpu_kernel* kernel) {
  return guard([&] {
    ProfileDevice& profile = device_of(program, "program");
    const xgpu_status status = made(inner().kernel_create(program, name, kernel), kernel, profile);
    // Measured now, before any argument is set: what the driver reports later may count the
    // previous launch's local arguments too (PoCL), and the launch check adds this launch's.
    std::uint64_t own = 0;
    if (status == XGPU_STATUS_SUCCESS && inner().kernel_limit &&
        inner().kernel_limit(*kernel, profile.backing, XGPU_KERNEL_LOCAL_MEMORY, &own) ==
            XGPU_STATUS_SUCCESS)
      note_static_local(*kernel, own);
    if (status == XGPU_STATUS_SUCCESS) note_arg_spaces(*kernel, read_arg_spaces(*kernel));
    return status;
  });
}

xgpu_status kernel_set_arg(xgpu_kernel kernel, uint32_t index, size_t size, const void* value) {
  return guard([&] {
    const xgpu_status status = pass(inner().kernel_set_arg(kernel, index, size, value));
    if (status == XGPU_STATUS_SUCCESS)
      note_arg(kernel, index, {XGPU_KERNEL_ARG_VALUE, size, index});
    return status;
  });
}

xgpu_status kernel_set_arg_buffer(xgpu_kernel kernel, uint32_t index, xgpu_buffer buffer) {
  return guard([&] {
    const xgpu_status status = pass(inner().kernel_set_arg_buffer(kernel, index, buffer));
    if (status == XGPU_STATUS_SUCCESS)
      note_arg(kernel, index, {XGPU_KERNEL_ARG_BUFFER, 0, index, buffer});
    return status;
  });
}

xgpu_status kernel_set_arg_local(xgpu_kernel kernel, uint32_t index, size_t size) {
  return guard([&] {
    const xgpu_status status = pass(inner().kernel_set_arg_local(kernel, index, size));
    if (status == XGPU_STATUS_SUCCESS)
      note_arg(kernel, index, {XGPU_KERNEL_ARG_LOCAL, size, index});
    return status;
  });
}

// What the core reads to choose work-group sizes: the smaller of the profile's and the
// backing's, and the profile's preferred multiple (its warp or wavefront).
xgpu_status kernel_limit(xgpu_kernel kernel, xgpu_device device, uint32_t property,
                         uint64_t* value) {
  return guard([&] {
    ProfileDevice& profile = profile_of(device);
    if (!inner().kernel_limit) return XGPU_STATUS_UNSUPPORTED;
    const xgpu_status status = pass(inner().kernel_limit(kernel, profile.backing, property, value));
    if (status != XGPU_STATUS_SUCCESS || !value) return status;
    if (property == XGPU_KERNEL_LOCAL_MEMORY) {
      if (const auto own = static_local_of(kernel)) *value = *own;  // else the driver's answer
    }
    if (property == XGPU_KERNEL_MAX_WORK_GROUP_SIZE)
      *value = std::min<uint64_t>(*value, profile.caps.max_work_group_size);
    if (property == XGPU_KERNEL_PREFERRED_MULTIPLE &&
        profile.file.device.contains("work_group_multiple") &&
        !profile.file.device["work_group_multiple"].is_null())
      *value = profile.file.device["work_group_multiple"].get<uint64_t>();
    return status;
  });
}

xgpu_status kernel_launch(xgpu_queue queue, xgpu_kernel kernel, uint32_t dimensions,
                          const size_t* global_offset, const size_t* global_size,
                          const size_t* local_size, const xgpu_wait_v1* wait, xgpu_event* event) {
  return guard([&] {
    ProfileDevice& profile = device_of(queue, "queue");
    std::vector<ArgNote> args;
    for (const auto& [index, arg] : args_of(kernel)) args.push_back(arg);
    check_launch(profile, kernel, dimensions, local_size, args);
    return pass(inner().kernel_launch(queue, kernel, dimensions, global_offset, global_size,
                                      local_size, wait, event));
  });
}

xgpu_status kernel_launch_with_args(xgpu_queue queue, xgpu_kernel kernel, uint32_t arg_count,
                                    const xgpu_kernel_arg_v1* args, uint32_t dimensions,
                                    const size_t* global_offset, const size_t* global_size,
                                    const size_t* local_size, uint32_t flags,
                                    const xgpu_wait_v1* wait, xgpu_event* event,
                                    uint32_t* failed_arg) {
  return guard([&] {
    ProfileDevice& profile = device_of(queue, "queue");
    std::vector<ArgNote> notes;
    for (uint32_t i = 0; i < arg_count; ++i)
      notes.push_back({args[i].kind, args[i].size, i, args[i].buffer});
    if (failed_arg) *failed_arg = arg_count;  // a refusal here is the launch's, not an argument's
    check_launch(profile, kernel, dimensions, local_size, notes);
    return pass(inner().kernel_launch_with_args(queue, kernel, arg_count, args, dimensions,
                                                global_offset, global_size, local_size, flags, wait,
                                                event, failed_arg));
  });
}

}  // namespace xgpu::profile
