// fail_call(): a failing OpenCL call, named with its CL_* status.
#include "errors.hpp"

#include <string>

#include "status_names.hpp"

namespace xgpu::backend_opencl {

void fail_call(int32_t status, const char* function) {
  fail(status, std::string(function) + " failed: " + status_name(status));
}

}  // namespace xgpu::backend_opencl
