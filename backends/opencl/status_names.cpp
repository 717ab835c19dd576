// Generates the status name lookup from cl_status_table.def, so names never drift from values.
#include "status_names.hpp"

namespace xgpu::opencl {
namespace {

struct StatusName {
  int32_t value;
  const char* name;
};

// The names are stringized before the preprocessor could expand them into their values.
constexpr StatusName kStatusNames[] = {
#define XGPU_STATUS(name, value) {value, #name},
#include "cl_status_table.def"
#undef XGPU_STATUS
};

}  // namespace

const char* status_name(int32_t status) noexcept {
  for (const StatusName& entry : kStatusNames) {
    if (entry.value == status) return entry.name;
  }
  return "UNKNOWN";
}

}  // namespace xgpu::opencl
