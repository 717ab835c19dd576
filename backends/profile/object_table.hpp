// Which profile device each forwarded object belongs to. Contexts, queues, buffers, programs
// and kernels are the inner module's own handles, passed through unchanged; this table notes,
// per handle, the profile it was made for, counts references the way the driver does (so a
// handle is forgotten when the driver frees it), and keeps what enforcement needs: a buffer's
// bytes, a sub-buffer's parent, a kernel's arguments set one at a time.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "profile_devices.hpp"
#include "xgpu/backend.h"

namespace xgpu::profile {

/// One kernel argument as the launch checks see it.
struct ArgNote {
  std::uint32_t kind = 0;   ///< XGPU_KERNEL_ARG_*
  std::size_t size = 0;     ///< value bytes, or local bytes
  std::uint32_t index = 0;  ///< the argument's position
  void* buffer = nullptr;   ///< a buffer argument's buffer (NULL allowed)
};

/// Notes a new object (one reference). `bytes`: a buffer_create() allocation, counted in the
/// device's live memory until the last release. `parent`: a sub-buffer's parent, kept counted
/// while the sub-buffer lives (as the driver keeps it alive).
void track(void* object, ProfileDevice& device, std::uint64_t bytes = 0, void* parent = nullptr);

/// The device `object` was made for; Failure (INVALID_VALUE, naming `what`) for a handle this
/// module did not give out.
ProfileDevice& device_of(void* object, const char* what);

void note_retain(void* object);
/// Drops one reference; at the last, returns the buffer's bytes to its device.
void note_release(void* object);

void note_arg(void* kernel, std::uint32_t index, ArgNote arg);
std::map<std::uint32_t, ArgNote> args_of(void* kernel);

/// A buffer's bytes (a sub-buffer's own), for the constant buffer check; 0 when unknown.
void note_buffer_size(void* buffer, std::uint64_t bytes);
std::uint64_t buffer_size_of(void* buffer);

/// A kernel's arguments' address spaces (XGPU_ADDRESS_*), read once when it was made; empty
/// when the driver could not say (then nothing depending on them is checked).
void note_arg_spaces(void* kernel, std::vector<std::uint64_t> spaces);
std::vector<std::uint64_t> arg_spaces_of(void* kernel);

/// A kernel's own (static) local memory, measured once when it was made: the driver's later
/// answer may include the local arguments of the last launch (PoCL's does). Empty when that
/// measurement failed: then the driver's own answer stands.
void note_static_local(void* kernel, std::uint64_t bytes);
std::optional<std::uint64_t> static_local_of(void* kernel);

}  // namespace xgpu::profile
