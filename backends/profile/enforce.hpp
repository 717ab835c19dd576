// The checks that make a profile's limits real. Each refusal carries the status the real
// driver gives for it (the inner module is OpenCL, so these are CL_* codes, named by its
// status table) and a text naming the profile, or saying that the limit hit is the backing
// device's when the profile allows more than the real device has.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "object_table.hpp"
#include "profile_devices.hpp"

namespace xgpu::profile {

// OpenCL statuses, by value: this module includes no OpenCL header.
constexpr xgpu_status kClMemObjectAllocationFailure = -4;
constexpr xgpu_status kClOutOfResources = -5;
constexpr xgpu_status kClInvalidBuildOptions = -43;
constexpr xgpu_status kClInvalidArgSize = -51;
constexpr xgpu_status kClInvalidWorkGroupSize = -54;
constexpr xgpu_status kClInvalidWorkItemSize = -55;
constexpr xgpu_status kClInvalidBufferSize = -61;

/// Refuses an allocation above the profile's (or the backing's) max_allocation, or one that
/// would take the live total past global_memory; otherwise adds `bytes` to the live total.
/// release_allocation() undoes it when the driver then refuses.
void reserve_allocation(ProfileDevice& device, std::uint64_t bytes);
void release_allocation(ProfileDevice& device, std::uint64_t bytes);

/// Work-group size (whole and per dimension, the kernel's own limit), local memory (the
/// kernel's static local memory plus local arguments) and parameter size of a launch.
/// `local_size` may be NULL (the driver chooses).
void check_launch(ProfileDevice& device, xgpu_kernel kernel, std::uint32_t dimensions,
                  const std::size_t* local_size, const std::vector<ArgNote>& args);

/// Refuses a -cl-std above the profile's (or the backing's) OpenCL C version, and returns
/// the options the backing device builds with: the caller's, with -cl-kernel-arg-info (the
/// constant buffer check needs the arguments' address spaces).
std::string build_options(ProfileDevice& device, const char* options);

/// What goes before a program's source so that its extension macros are the profile's.
std::string source_prelude(const ProfileDevice& device);

}  // namespace xgpu::profile
