// fail_call(): a failing driver call, named with its CUresult and the driver's description.
#include "errors.hpp"

#include <string>

#include "driver.hpp"
#include "status_names.hpp"

namespace xgpu::backend_cuda {

void fail_call(CUresult status, const char* call) {
  std::string text = std::string(call) + " failed: " + status_name(status);
  const char* description = nullptr;
  if (cu().cuGetErrorString != nullptr &&
      cu().cuGetErrorString(status, &description) == CUDA_SUCCESS && description != nullptr) {
    text += std::string(" (") + description + ")";
  }
  fail(status, text);
}

}  // namespace xgpu::backend_cuda
