// Generates the status name lookup from cl_status_table.def, so names never drift from
// values; the ABI's own statuses are named by xgpu::common from backend_status.def.
#include "status_names.hpp"

#include "xgpu/common/status_names.hpp"

namespace xgpu::backend_opencl {
namespace {

// The names are stringized before the preprocessor could expand them into their values.
constexpr common::StatusName kClStatusNames[] = {
#define XGPU_CL_STATUS(name, value) {value, #name},
#include "cl_status_table.def"
#undef XGPU_CL_STATUS
};

}  // namespace

const char* status_name(int32_t status) {
  const char* name = common::find_status_name(kClStatusNames, status);
  if (name == nullptr) name = common::status_name_or_unknown(status);
  return name;
}

}  // namespace xgpu::backend_opencl
