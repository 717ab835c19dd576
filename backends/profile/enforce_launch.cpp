// Launch limits: the work-group size (whole, per dimension, and the kernel's own), local
// memory and the parameter size, each against the profile first and the backing device
// second.
#include "enforce.hpp"
#include "inner_module.hpp"
#include "xgpu/common/errors.hpp"

namespace xgpu::profile {
namespace {

std::string backing_says(const ProfileDevice& device, const std::string& limit) {
  return "the backing device " + device.backing_caps.name + " " + limit +
         " (its limit, not the profile's)";
}

std::uint64_t kernel_value(ProfileDevice& device, xgpu_kernel kernel, std::uint32_t property) {
  std::uint64_t value = 0;
  if (!inner().kernel_limit ||
      inner().kernel_limit(kernel, device.backing, property, &value) != XGPU_STATUS_SUCCESS)
    return 0;
  return value;
}

void check_work_group(ProfileDevice& device, xgpu_kernel kernel, std::uint32_t dimensions,
                      const std::size_t* local_size) {
  std::uint64_t total = 1;
  for (std::uint32_t d = 0; d < dimensions; ++d) total *= local_size[d];
  // The whole group first, as drivers do: a 1-D group of 512 on a device of 256 is
  // CL_INVALID_WORK_GROUP_SIZE, not a work-item size error.
  const std::string asked_total = "; the launch asked for " + std::to_string(total);
  if (total > device.caps.max_work_group_size)
    common::fail(kClInvalidWorkGroupSize, device.label + " allows at most " +
                                              std::to_string(device.caps.max_work_group_size) +
                                              " work-items per group" + asked_total);
  for (std::uint32_t d = 0; d < dimensions; ++d) {
    const std::string asked = "; the launch asked for " + std::to_string(local_size[d]) +
                              " in dimension " + std::to_string(d);
    if (local_size[d] > device.caps.max_work_item_sizes[d])
      common::fail(kClInvalidWorkItemSize, device.label + " allows at most " +
                                               std::to_string(device.caps.max_work_item_sizes[d]) +
                                               " work-items in dimension " + std::to_string(d) +
                                               asked);
    if (local_size[d] > device.backing_caps.max_work_item_sizes[d])
      common::fail(
          kClInvalidWorkItemSize,
          backing_says(device, "allows at most " +
                                   std::to_string(device.backing_caps.max_work_item_sizes[d]) +
                                   " work-items in dimension " + std::to_string(d)) +
              asked);
  }
  const std::uint64_t kernel_max = kernel_value(device, kernel, XGPU_KERNEL_MAX_WORK_GROUP_SIZE);
  if (kernel_max != 0 && total > kernel_max)
    common::fail(kClInvalidWorkGroupSize,
                 backing_says(device, "allows at most " + std::to_string(kernel_max) +
                                          " work-items per group for this kernel") +
                     asked_total);
}

void check_local_memory(ProfileDevice& device, xgpu_kernel kernel,
                        const std::vector<ArgNote>& args) {
  // The kernel's own local memory as measured at its creation: the driver's answer now may
  // already count the previous launch's local arguments (object_table.hpp). When that
  // measurement failed, the driver's answer now, which errs on the side of refusing.
  std::uint64_t own = 0;
  if (const auto measured = static_local_of(kernel)) {
    own = *measured;
  } else if (!inner().kernel_limit ||
             inner().kernel_limit(kernel, device.backing, XGPU_KERNEL_LOCAL_MEMORY, &own) !=
                 XGPU_STATUS_SUCCESS) {
    own = 0;  // unknown: only the local arguments are counted
  }
  std::uint64_t in_args = 0;
  for (const ArgNote& arg : args)
    if (arg.kind == XGPU_KERNEL_ARG_LOCAL) in_args += arg.size;
  const std::uint64_t total = own + in_args;
  const std::string asked = "; the launch needs " + std::to_string(total) + " (" +
                            std::to_string(own) + " of the kernel's own, " +
                            std::to_string(in_args) + " in local arguments)";
  if (total > device.caps.local_memory)
    common::fail(kClOutOfResources, device.label + " has " +
                                        std::to_string(device.caps.local_memory) +
                                        " bytes of local memory" + asked);
  if (total > device.backing_caps.local_memory)
    common::fail(kClOutOfResources,
                 backing_says(device, "has " + std::to_string(device.backing_caps.local_memory) +
                                          " bytes of local memory") +
                     asked);
}

// What the arguments occupy in the parameter block: values at their size, buffers and
// local arguments as a pointer.
void check_parameter_size(ProfileDevice& device, const std::vector<ArgNote>& args) {
  std::uint64_t total = 0;
  for (const ArgNote& arg : args)
    total += arg.kind == XGPU_KERNEL_ARG_VALUE ? arg.size : sizeof(void*);
  if (device.caps.max_parameter_size != 0 && total > device.caps.max_parameter_size)
    common::fail(kClInvalidArgSize, device.label + " allows at most " +
                                        std::to_string(device.caps.max_parameter_size) +
                                        " bytes of kernel arguments; this launch passes " +
                                        std::to_string(total));
}

// Each __constant buffer argument against the largest constant buffer. CL_OUT_OF_RESOURCES at
// the launch, as NVIDIA's OpenCL answers a kernel whose __constant argument is larger than its
// 64 KiB of constant memory (the buffer itself is an ordinary allocation until then).
void check_constant_buffers(ProfileDevice& device, xgpu_kernel kernel,
                            const std::vector<ArgNote>& args) {
  const std::vector<std::uint64_t> spaces = arg_spaces_of(kernel);
  for (const ArgNote& arg : args) {
    if (arg.kind != XGPU_KERNEL_ARG_BUFFER || !arg.buffer || arg.index >= spaces.size() ||
        spaces[arg.index] != XGPU_ADDRESS_CONSTANT)
      continue;
    const std::uint64_t bytes = buffer_size_of(arg.buffer);
    const std::string asked = "; argument " + std::to_string(arg.index) + " is a buffer of " +
                              std::to_string(bytes) + " bytes";
    if (device.caps.max_constant_buffer != 0 && bytes > device.caps.max_constant_buffer)
      common::fail(kClOutOfResources, device.label + " allows at most " +
                                          std::to_string(device.caps.max_constant_buffer) +
                                          " bytes in a __constant buffer" + asked);
    if (device.backing_caps.max_constant_buffer != 0 &&
        bytes > device.backing_caps.max_constant_buffer)
      common::fail(
          kClOutOfResources,
          backing_says(device, "allows at most " +
                                   std::to_string(device.backing_caps.max_constant_buffer) +
                                   " bytes in a __constant buffer") +
              asked);
  }
}

}  // namespace

void check_launch(ProfileDevice& device, xgpu_kernel kernel, std::uint32_t dimensions,
                  const std::size_t* local_size, const std::vector<ArgNote>& args) {
  if (dimensions > 3) common::fail(XGPU_STATUS_INVALID_VALUE, "a launch has at most 3 dimensions");
  if (local_size) check_work_group(device, kernel, dimensions, local_size);
  check_local_memory(device, kernel, args);
  check_parameter_size(device, args);
  check_constant_buffers(device, kernel, args);
}

}  // namespace xgpu::profile
