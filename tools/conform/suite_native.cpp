// register_native: the checks of driver features xgpu's own API does not offer, reached
// through its OpenCL interop (plumbing in native.hpp), one file per suite they belong to:
// suite_native_api.cpp, _memory, _compiler, _events and _math. Registered in that order.
#include "native.hpp"

namespace xgpu::conform {

void register_native(Registry& registry) {
  register_native_api(registry);
  register_native_memory(registry);
  register_native_compiler(registry);
  register_native_events(registry);
  register_native_math(registry);
}

}  // namespace xgpu::conform
