// The version of the loaded library.
#include "xgpu/version.hpp"

namespace xgpu {
const char* version() noexcept { return XGPU_VERSION_STRING; }
}  // namespace xgpu
