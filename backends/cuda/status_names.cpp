// Status names: the ABI's own table, then the driver, then the module's table of the CUresults
// it must name before (or without) a driver.
#include "status_names.hpp"

#include "driver.hpp"
#include "xgpu/common/status_names.hpp"

namespace xgpu::backend_cuda {
namespace {

constexpr common::StatusName kCudaStatusNames[] = {
#define XGPU_CUDA_STATUS(name, value) {value, #name},
#include "cuda_status_table.def"
#undef XGPU_CUDA_STATUS
};

}  // namespace

const char* status_name(int32_t status) {
  if (const char* name = common::abi_status_name(status)) return name;
  // cuGetErrorName is resolved before cuInit's failure is named (driver.cpp), so it may be
  // set while driver_loaded() is still false; its strings are static.
  if (auto get_name = cu().cuGetErrorName) {
    const char* name = nullptr;
    if (get_name(status, &name) == CUDA_SUCCESS && name != nullptr) return name;
  }
  if (const char* name = common::find_status_name(kCudaStatusNames, status)) return name;
  return "UNKNOWN";
}

}  // namespace xgpu::backend_cuda
