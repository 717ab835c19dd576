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
    // No version: only facts of every version can apply, which drivers::applies() decides.
  }
  // The platform's first word is its driver's dispatch table, as for every object of it.
  const void* dispatch = *reinterpret_cast<void* const*>(record.platform);
  for (const drivers::DriverFact* fact : drivers::facts_for(
           record.classification.implementation, driver_version, drivers::Affects::workaround)) {
    add_platform(detail::g_quirk_platforms[static_cast<size_t>(fact->workaround)], dispatch);
    XGPU_LOG_DEBUGF("workaround %s applies to %s (%s, driver \"%s\"): %s",
                    drivers::workaround_name(fact->workaround), record.identity.device_name.c_str(),
                    fact->implementation, driver_version.c_str(), fact->why);
  }
}

}  // namespace xgpu::backend_opencl
