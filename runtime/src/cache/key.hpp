// The kernel cache's key: everything that can change the binary a driver produces.
#pragma once

#include <string>

namespace xgpu::detail {

struct DeviceRecord;

/// The drivers' build-option variables that are set (POCL_EXTRA_BUILD_FLAGS, ...), one
/// "env NAME=value" line each. Read once per process, as the drivers read them at their start.
const std::string& driver_option_variables();

/// The full key text: cache format, backend and ABI, platform, device and driver versions,
/// UUID, normalized build options, build options the drivers read from the environment
/// (`driver_variables`, as driver_option_variables() gives them), and the fully expanded
/// source. Stored in the entry and compared on load.
std::string make_cache_key(const DeviceRecord& device, const std::string& options,
                           const std::string& expanded_source,
                           const std::string& driver_variables = driver_option_variables());

/// Options with runs of whitespace folded to one space and the ends trimmed; order is
/// kept because it matters (-D X=1 -D X=2).
std::string normalize_options(const std::string& options);

}  // namespace xgpu::detail
