// Opening libcuda.so.1 and initialising it, once (see driver.hpp).
#include "driver.hpp"

#include <atomic>
#include <mutex>
#include <string>

#include "errors.hpp"
#include "status_names.hpp"
#include "xgpu/common/cuda_libraries.hpp"
#include "xgpu/common/dynamic_library.hpp"
#include "xgpu/common/log.hpp"

namespace xgpu::backend_cuda {
namespace {

DriverApi g_api;
std::atomic<bool> g_loaded{false};
std::once_flag g_once;
xgpu_status g_status = XGPU_STATUS_SUCCESS;
std::string g_text;

template <class Function>
bool resolve(const common::DynamicLibrary& library, Function& member, const char* symbol,
             const char* fallback) {
  member = library.function<Function>(symbol);
  if (member == nullptr && fallback != nullptr) member = library.function<Function>(fallback);
  return member != nullptr;
}

// cuInit alone first: a driver that cannot initialise (no device, a kernel module mismatch)
// should say so, not that it lacks some later entry point.
void initialise(const common::DynamicLibrary& library) {
  using CuInit = CUresult (*)(unsigned int);
  auto cu_init = library.function<CuInit>("cuInit");
  CUresult status = cu_init(0);
  if (status == CUDA_SUCCESS) return;
  // The driver may name the status itself; a minimal or broken one may not.
  resolve(library, g_api.cuGetErrorName, "cuGetErrorName", nullptr);
  const std::string name = status_name(status);
  if (status == CUDA_ERROR_NO_DEVICE) fail(status, "no CUDA device (cuInit: " + name + ")");
  fail(status, "cuInit failed: " + name);
}

void load_once() {
  common::DynamicLibrary library =
      common::DynamicLibrary::open(common::kCudaDriverLibrary, {"cuInit"});
  if (!library.loaded()) {
    const std::string& why = library.attempts().empty() ? library.why_not() : library.attempts();
    fail(XGPU_STATUS_NOT_AVAILABLE, "no NVIDIA driver (" + why + ")");
  }
  XGPU_LOG_DEBUGF("cuda: driver library %s", library.path().c_str());
  initialise(library);
  std::string missing;
#define XGPU_CU(member, symbol, fallback, result, parameters)     \
  if (!resolve(library, g_api.member, symbol, fallback)) {        \
    missing += std::string(missing.empty() ? "" : ", ") + symbol; \
  }
#include "cuda_driver_functions.def"
#undef XGPU_CU
  if (!missing.empty()) {
    fail(XGPU_STATUS_NOT_AVAILABLE, "no usable NVIDIA driver (" + library.path() + " lacks " +
                                        missing + ": a driver older than CUDA 11?)");
  }
  g_loaded = true;
}

}  // namespace

void load_driver() {
  std::call_once(g_once, [] {
    g_status = common::guard([] {
      load_once();
      return XGPU_STATUS_SUCCESS;
    });
    if (g_status != XGPU_STATUS_SUCCESS) g_text = last_error_text();
  });
  if (g_status != XGPU_STATUS_SUCCESS) fail(g_status, g_text);
}

const DriverApi& cu() { return g_api; }

bool driver_loaded() noexcept { return g_loaded; }

int driver_version() {
  int version = 0;
  check(cu().cuDriverGetVersion(&version), "cuDriverGetVersion");
  return version;
}

}  // namespace xgpu::backend_cuda
