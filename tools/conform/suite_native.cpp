// Placeholder: driver features reached through interop (issue 5).
#include "check.hpp"

namespace xgpu::conform {

void register_native(Registry&) {}

}  // namespace xgpu::conform
