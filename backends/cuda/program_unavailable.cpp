// A tree built without the OpenCL C translation (backends/cuda/translate/): the module still
// loads and lists devices, and refuses to compile source with a named reason.
#include "errors.hpp"
#include "launch_contract.hpp"
#include "program_build.hpp"

namespace xgpu::backend_cuda {
namespace {

[[noreturn]] void unavailable() {
  fail(XGPU_STATUS_UNSUPPORTED,
       "this cuda module was built without the OpenCL C translation (backends/cuda/translate)");
}

}  // namespace

void compile_source(Program& program, const DeviceRecord&, const std::string&) {
  program.build_log = "the cuda module was built without the OpenCL C translation";
  unavailable();
}

std::string translation_fingerprint() { return "no translation"; }

size_t local_argument_alignment() { unavailable(); }

std::vector<unsigned char> launch_information(uint32_t, const size_t*, const size_t*) {
  unavailable();
}

}  // namespace xgpu::backend_cuda
