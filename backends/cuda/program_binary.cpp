// Program binaries for the kernel cache: the PTX NVRTC made, with the compute capability it
// was made for and the kernels' signatures (PTX does not keep OpenCL's parameter types, and
// the launch needs them). The core keys entries on the device version ("CUDA sm_90") and the
// driver version, so a driver update rebuilds; the header's architecture line refuses an
// entry for another GPU even so.
//
// Layout: "xgpu-cuda-ptx 1\n" "sm_90\n" then per kernel "kernel NAME\n" and per parameter
// "param SPACE POINTER SIZE NAME\tTYPE\n", then "ptx\n" and the PTX text.
#include <sstream>
#include <string>

#include "driver.hpp"
#include "entries.hpp"
#include "errors.hpp"
#include "handles.hpp"
#include "xgpu/common/out_param.hpp"

namespace xgpu::backend_cuda {
namespace {

constexpr const char* kMagic = "xgpu-cuda-ptx 1";

std::string architecture(const DeviceRecord& record) {
  return "sm_" + std::to_string(record.cc_major) + std::to_string(record.cc_minor);
}

std::string encode(const Program& program, const DeviceRecord& record) {
  std::string text = std::string(kMagic) + "\n" + architecture(record) + "\n";
  for (const KernelInfo& kernel : program.kernels) {
    text += "kernel " + kernel.name + "\n";
    for (const ParamInfo& param : kernel.params) {
      text += "param " + std::to_string(param.address_space) + " " +
              std::to_string(param.is_pointer ? 1 : 0) + " " + std::to_string(param.value_size) +
              " " + param.name + "\t" + param.type + "\n";
    }
  }
  return text + "ptx\n" + program.ptx;
}

[[noreturn]] void corrupt(const std::string& why) {
  fail(XGPU_STATUS_INVALID_VALUE, "not a cuda module binary: " + why);
}

void decode(const std::string& text, const DeviceRecord& record, Program& program) {
  std::istringstream in(text);
  std::string line;
  if (!std::getline(in, line) || line != kMagic) corrupt("wrong header");
  if (!std::getline(in, line)) corrupt("no architecture");
  if (line != architecture(record)) {
    fail(XGPU_STATUS_INVALID_VALUE,
         "binary made for " + line + ", the device is " + architecture(record));
  }
  while (std::getline(in, line)) {
    if (line == "ptx") {
      const auto start = static_cast<size_t>(in.tellg());
      program.ptx = text.substr(start);
      if (program.ptx.empty()) corrupt("no PTX");
      return;
    }
    if (line.rfind("kernel ", 0) == 0) {
      program.kernels.push_back({line.substr(7), {}});
    } else if (line.rfind("param ", 0) == 0 && !program.kernels.empty()) {
      std::istringstream fields(line.substr(6));
      ParamInfo param;
      int pointer = 0;
      fields >> param.address_space >> pointer >> param.value_size;
      if (fields.fail() || fields.get() != ' ') corrupt("bad parameter line");
      std::string rest;
      std::getline(fields, rest);
      const size_t tab = rest.find('\t');
      if (tab == std::string::npos) corrupt("bad parameter line");
      param.is_pointer = pointer != 0;
      param.name = rest.substr(0, tab);
      param.type = rest.substr(tab + 1);
      program.kernels.back().params.push_back(param);
    } else {
      corrupt("unexpected line '" + line + "'");
    }
  }
  corrupt("no PTX");
}

}  // namespace

xgpu_status program_binary(xgpu_program program, xgpu_device device, void* buffer, size_t capacity,
                           size_t* size_ret) {
  return guard([&] {
    Program& p = program_of(program);
    DeviceRecord& record = registry_find(device);
    if (p.ptx.empty()) fail(XGPU_STATUS_INVALID_VALUE, "program_binary: the program is not built");
    const std::string text = encode(p, record);
    common::copy_out(text.data(), text.size(), buffer, capacity, size_ret);
    return XGPU_STATUS_SUCCESS;
  });
}

// The PTX is loaded by program_build(), as for a program made from source.
xgpu_status program_create_binary(xgpu_context context, xgpu_device device, const void* binary,
                                  size_t length, xgpu_program* program) {
  return guard([&] {
    if (program == nullptr || binary == nullptr) {
      fail(XGPU_STATUS_INVALID_VALUE, "program_create_binary: NULL binary or output");
    }
    Context& owner = context_of(context);
    DeviceRecord& record = registry_find(device);
    if (&record != owner.device) {
      fail(XGPU_STATUS_INVALID_VALUE, "program_create_binary: the device is not the context's");
    }
    auto made = Ref<Program>::adopt(new Program);
    made->context = Ref<Context>::retain(&owner);
    made->from_binary = true;
    decode(std::string(static_cast<const char*>(binary), length), record, *made);
    *program = handle_of<xgpu_program>(made.release());
    return XGPU_STATUS_SUCCESS;
  });
}

}  // namespace xgpu::backend_cuda
