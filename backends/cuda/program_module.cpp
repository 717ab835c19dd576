// Programs: creation from source, the build (compile_source, then load_ptx), its log and
// kernel names. See program_build.hpp for the two halves of a build.
#include <cstring>
#include <vector>

#include "driver.hpp"
#include "entries.hpp"
#include "errors.hpp"
#include "handles.hpp"
#include "program_build.hpp"
#include "xgpu/common/log.hpp"
#include "xgpu/common/out_param.hpp"

namespace xgpu::backend_cuda {
namespace {

// JIT logs are short; a longer one is cut, not overflowed (the driver writes at most this).
constexpr size_t kJitLogSize = 16 * 1024;

std::string ptx_version_of(const std::string& ptx) {
  const size_t at = ptx.find(".version ");
  if (at == std::string::npos) return "unknown";
  return ptx.substr(at + 9, ptx.find('\n', at) - at - 9);
}

std::string cuda_version_text(int version) {
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

}  // namespace

void load_ptx(Program& program, const DeviceRecord& device) {
  std::vector<char> error_log(kJitLogSize, '\0');
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void* values[] = {error_log.data(), reinterpret_cast<void*>(error_log.size() - 1)};
  ScopedContext scope(*program.context);
  CUresult status =
      cu().cuModuleLoadDataEx(&program.module, program.ptx.c_str(), 2, options, values);
  if (status == CUDA_SUCCESS) return;
  program.module = nullptr;
  const std::string jit_log = error_log.data();
  if (!jit_log.empty()) program.build_log += (program.build_log.empty() ? "" : "\n") + jit_log;
  if (status == CUDA_ERROR_UNSUPPORTED_PTX_VERSION) {
    const std::string text = "the NVIDIA driver (CUDA " + cuda_version_text(driver_version()) +
                             ") is older than the PTX (ISA " + ptx_version_of(program.ptx) +
                             ") NVRTC made for sm_" + std::to_string(device.cc_major) +
                             std::to_string(device.cc_minor) +
                             ": update the driver, or point XGPU_NVRTC_LIBRARY at an NVRTC no "
                             "newer than the driver";
    program.build_log += (program.build_log.empty() ? "" : "\n") + text;
    fail(status, "cuModuleLoadDataEx failed: CUDA_ERROR_UNSUPPORTED_PTX_VERSION: " + text);
  }
  fail_call(status, "cuModuleLoadDataEx");
}

xgpu_status program_create(xgpu_context context, const char* source, size_t length,
                           xgpu_program* program) {
  return guard([&] {
    if (program == nullptr || source == nullptr) {
      fail(XGPU_STATUS_INVALID_VALUE, "program_create: NULL source or output");
    }
    auto made = Ref<Program>::adopt(new Program);
    made->context = Ref<Context>::retain(&context_of(context));
    made->source.assign(source, length);
    *program = handle_of<xgpu_program>(made.release());
    return XGPU_STATUS_SUCCESS;
  });
}

xgpu_status program_build(xgpu_program program, xgpu_device device, const char* options) {
  return guard([&] {
    Program& p = program_of(program);
    DeviceRecord& record = registry_find(device);
    if (&record != p.context->device) {
      fail(XGPU_STATUS_INVALID_VALUE, "program_build: the device is not the program's context's");
    }
    std::lock_guard<std::mutex> lock(p.build_mutex);
    if (p.module != nullptr) fail(XGPU_STATUS_INVALID_VALUE, "program_build: already built");
    if (!p.from_binary) compile_source(p, record, options != nullptr ? options : "");
    load_ptx(p, record);
    XGPU_LOG_DEBUGF("cuda: loaded %zu bytes of PTX, %zu kernels", p.ptx.size(), p.kernels.size());
    return XGPU_STATUS_SUCCESS;
  });
}

xgpu_status program_build_log(xgpu_program program, xgpu_device device, char* buffer,
                              size_t capacity, size_t* size_ret) {
  return guard([&] {
    Program& p = program_of(program);
    registry_find(device);
    std::lock_guard<std::mutex> lock(p.build_mutex);
    common::copy_out(common::bytes_of_string(p.build_log), buffer, capacity, size_ret);
    return XGPU_STATUS_SUCCESS;
  });
}

xgpu_status program_kernel_names(xgpu_program program, char* buffer, size_t capacity,
                                 size_t* size_ret) {
  return guard([&] {
    Program& p = program_of(program);
    std::lock_guard<std::mutex> lock(p.build_mutex);
    if (p.module == nullptr) fail(XGPU_STATUS_INVALID_VALUE, "program_kernel_names: not built");
    std::string names;
    for (const KernelInfo& kernel : p.kernels) names += (names.empty() ? "" : ";") + kernel.name;
    common::copy_out(common::bytes_of_string(names), buffer, capacity, size_ret);
    return XGPU_STATUS_SUCCESS;
  });
}

}  // namespace xgpu::backend_cuda
