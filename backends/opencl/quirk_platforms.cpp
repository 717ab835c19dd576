// The per-quirk sets of dispatch pointers behind quirk_on(); see quirk_platforms.hpp.
#include "quirk_platforms.hpp"

#include "cl_query.hpp"
#include "errors.hpp"
#include "registry.hpp"
#include "xgpu/common/log.hpp"

namespace xgpu::backend_opencl {
namespace detail {

QuirkPlatforms g_quirk_platforms[kQuirkCount];

}  // namespace detail
namespace {

void add_platform(detail::QuirkPlatforms& set, const void* dispatch) {
  uint32_t count = set.count.load(std::memory_order_relaxed);
  for (uint32_t i = 0; i < count; ++i) {
    if (set.dispatch[i].load(std::memory_order_relaxed) == dispatch) return;
  }
  if (count == detail::kMaxQuirkPlatforms) {
    set.every_handle.store(true, std::memory_order_release);
    return;
  }
  set.dispatch[count].store(dispatch, std::memory_order_relaxed);
  set.count.store(count + 1, std::memory_order_release);
}

}  // namespace

void enable_quirks(const DeviceRecord& record) {
  std::string driver_version;
  try {
    driver_version = device_string(record.device, CL_DRIVER_VERSION);
  } catch (const Failure&) {
    // No version: only quirks of every version can apply, which quirk_applies() decides.
  }
  // The platform's first word is its driver's dispatch table, as for every object of it.
  const void* dispatch = *reinterpret_cast<void* const*>(record.platform);
  for (size_t i = 0; i < detail::kQuirkCount; ++i) {
    const Quirk& entry = quirk(static_cast<QuirkId>(i));
    if (!quirk_applies(entry, record.classification.implementation, driver_version)) continue;
    add_platform(detail::g_quirk_platforms[i], dispatch);
    XGPU_LOG_DEBUGF("quirk %s applies to %s (%s, driver \"%s\"): %s", entry.name,
                    record.identity.device_name.c_str(), entry.implementation,
                    driver_version.c_str(), entry.why);
  }
}

}  // namespace xgpu::backend_opencl
