// Reference counting of backend objects through the module table.
#include "xgpu/handle.hpp"

#include "log.hpp"
#include "module.hpp"

namespace xgpu::detail {

void retain_object(const Module* module, ObjectKind kind, void* raw) {
  check(*module, module->table->retain(static_cast<std::uint32_t>(kind), raw), "retain", nullptr);
}

void release_object(const Module* module, ObjectKind kind, void* raw) noexcept {
  xgpu_status status = module->table->release(static_cast<std::uint32_t>(kind), raw);
  if (status != XGPU_STATUS_SUCCESS) {
    // A destructor must not throw: the failure is logged, never lost.
    logger().warn("releasing a backend object of kind {} failed: {} {}",
                  static_cast<std::uint32_t>(kind), module->status_name(status),
                  module->last_error());
  }
}

}  // namespace xgpu::detail
