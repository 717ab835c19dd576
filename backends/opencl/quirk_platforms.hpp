// Which platforms each workaround of the table of known drivers applies to
// (xgpu/common/drivers/known_drivers.def: every driver bug the module works around is one entry
// there, with the implementation, the driver versions and why), and a check cheap enough for
// every entry's hot path. Code that works around a bug asks quirk_on(Workaround::..., handle);
// it never tests a vendor or version string itself.
//
// Every object of an ICD driver (platform, device, context, queue, buffer, program, kernel,
// event) begins with a pointer to that driver's dispatch table, the same for all its objects:
// the ICD loader dispatches through it. init() records the dispatch pointers of the platforms
// each quirk applies to, so quirk_on() needs no OpenCL query: when no platform has the quirk
// (PoCL alone) it is one load, otherwise a compare per recorded platform.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "xgpu/common/drivers/known_drivers.hpp"

namespace xgpu::backend_opencl {

using drivers::Workaround;

struct DeviceRecord;

/// Records the device's platform for every workaround that applies to its implementation and
/// driver version, logging each one. Called once per device by the registry at init().
void enable_quirks(const DeviceRecord& record);

namespace detail {
inline constexpr size_t kQuirkCount = static_cast<size_t>(Workaround::count);
// Far more ICD drivers than anyone installs; past it, a quirk applies to every handle (slower,
// still correct) rather than to none.
inline constexpr uint32_t kMaxQuirkPlatforms = 8;

// Written only at init() (under the registry's lock), read lock-free by every entry: the
// count is published after its slot, so a reader never sees an unwritten slot.
struct QuirkPlatforms {
  std::atomic<uint32_t> count{0};
  std::atomic<const void*> dispatch[kMaxQuirkPlatforms] = {};
  std::atomic<bool> every_handle{false};
};
extern QuirkPlatforms g_quirk_platforms[kQuirkCount];
}  // namespace detail

/// True when `handle` (any cl_* object, or NULL) belongs to a platform with workaround `id`.
/// Inline and call-free: it runs in every entry.
inline bool quirk_on(Workaround id, const void* handle) noexcept {
  const detail::QuirkPlatforms& set = detail::g_quirk_platforms[static_cast<size_t>(id)];
  uint32_t count = set.count.load(std::memory_order_acquire);
  if (count == 0 || handle == nullptr) return false;
  const void* dispatch = *static_cast<const void* const*>(handle);
  for (uint32_t i = 0; i < count; ++i) {
    if (set.dispatch[i].load(std::memory_order_relaxed) == dispatch) return true;
  }
  return set.every_handle.load(std::memory_order_relaxed);
}

}  // namespace xgpu::backend_opencl
