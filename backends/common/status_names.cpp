// The ABI statuses' names, generated from xgpu/backend_status.def, and the table lookup.
#include "xgpu/common/status_names.hpp"

namespace xgpu::common {
namespace {

// The names are stringized before the preprocessor could expand them into their values.
constexpr StatusName kAbiStatusNames[] = {
    {XGPU_STATUS_SUCCESS, "XGPU_STATUS_SUCCESS"},
#define XGPU_BACKEND_STATUS(name, errc) {name, #name},
#include "xgpu/backend_status.def"
#undef XGPU_BACKEND_STATUS
};

}  // namespace

const char* find_status_name(const StatusName* table, size_t count, int32_t status) noexcept {
  for (size_t i = 0; i < count; ++i) {
    if (table[i].value == status) return table[i].name;
  }
  return nullptr;
}

const char* abi_status_name(xgpu_status status) noexcept {
  return find_status_name(kAbiStatusNames, status);
}

const char* status_name_or_unknown(xgpu_status status) noexcept {
  const char* name = abi_status_name(status);
  return name != nullptr ? name : "UNKNOWN";
}

}  // namespace xgpu::common
