// The entries of the profile module's table that it decorates, one per member, each declared
// with its member's signature (xgpu/backend_members.def), so that a definition which drifts
// from it fails to link instead of leaving the member forwarded. Every member not listed here
// is the inner module's own, forwarded unchanged (entry.cpp).
#pragma once

#include <type_traits>

#include "xgpu/backend.h"

namespace xgpu::profile {

#define XGPU_PROFILE_ENTRY(member) std::remove_pointer_t<decltype(xgpu_backend_v1::member)> member

// entry.cpp
XGPU_PROFILE_ENTRY(init);
XGPU_PROFILE_ENTRY(status_name);
XGPU_PROFILE_ENTRY(device_count);
XGPU_PROFILE_ENTRY(device_get);
// device_info_entry.cpp
XGPU_PROFILE_ENTRY(device_info);
// forward_entries.cpp
XGPU_PROFILE_ENTRY(retain);
XGPU_PROFILE_ENTRY(release);
XGPU_PROFILE_ENTRY(native_handle);
XGPU_PROFILE_ENTRY(context_create);
XGPU_PROFILE_ENTRY(queue_create);
XGPU_PROFILE_ENTRY(buffer_create);
XGPU_PROFILE_ENTRY(buffer_create_sub);
XGPU_PROFILE_ENTRY(program_create);
XGPU_PROFILE_ENTRY(program_build);
XGPU_PROFILE_ENTRY(program_build_log);
XGPU_PROFILE_ENTRY(kernel_create);
XGPU_PROFILE_ENTRY(kernel_set_arg);
XGPU_PROFILE_ENTRY(kernel_set_arg_buffer);
XGPU_PROFILE_ENTRY(kernel_set_arg_local);
XGPU_PROFILE_ENTRY(kernel_limit);
XGPU_PROFILE_ENTRY(kernel_launch);
XGPU_PROFILE_ENTRY(kernel_launch_with_args);

#undef XGPU_PROFILE_ENTRY

}  // namespace xgpu::profile
