// Which backend serves each GPU (one GPU seen by two modules is one device: docs/backends.md),
// and NVRTC, without which the CUDA module builds no kernel.
#include <exception>
#include <xgpu/device.hpp>
#include <xgpu/error.hpp>
#include <xgpu/extension.hpp>

#include "doctor.hpp"
#include "nvrtc_library.hpp"
#include "opencl_to_cuda.hpp"
#include "xgpu/common/settings.hpp"

namespace xgpu::cli::doctor {
namespace {

const std::string kChoice = "Backend choice", kNvrtc = "CUDA compiler (NVRTC)";

std::string joined(const std::vector<std::string>& items, const char* separator = ", ") {
  std::string text;
  for (const std::string& item : items) text += (text.empty() ? "" : separator) + item;
  return text;
}

// Why the order is what it is: the user's setting, or the default and what it waits for.
std::string order_reason(const std::vector<std::string>& order) {
  const std::string set = common::setting_text(common::Setting::backend_order);
  if (!set.empty()) return "first in XGPU_BACKEND_ORDER=" + set;
  return "first in the default order (" + joined(order, ",") +
         "): the CUDA module has not yet passed tools/gpu-check.sh on a real GPU; "
         "XGPU_BACKEND_ORDER=cuda,opencl picks it";
}

// A tiny kernel through the module's own path: OpenCL C translated, then NVRTC to PTX.
Finding compile_probe(const xgpu_cuda::NvrtcLibrary& nvrtc) {
  Finding finding{kNvrtc, "a kernel compiled", Status::ok, {}, {}};
  const std::vector<int> archs = nvrtc.supported_archs();
  // The oldest target this NVRTC offers compiles everywhere; 7.5 is what NVRTC 13 keeps.
  const int arch = archs.empty() ? 75 : archs.front();
  try {
    const xgpu_cuda::Translation translation = xgpu_cuda::translate_opencl_c(
        "__kernel void doctor(__global float* x) { x[get_global_id(0)] *= 2.0f; }", "doctor.cl");
    const xgpu_cuda::PtxResult ptx =
        xgpu_cuda::compile_to_ptx(nvrtc, translation.cuda_source, "doctor.cu",
                                  xgpu_cuda::nvrtc_options("", arch / 10, arch % 10));
    if (ptx.ok && ptx.ptx.find(".entry") != std::string::npos) {
      finding.detail = "compute_" + std::to_string(arch) + ": " + std::to_string(ptx.ptx.size()) +
                       " bytes of PTX";
      return finding;
    }
    finding.status = Status::problem;
    finding.detail = (ptx.error.empty() ? "no kernel in the PTX" : ptx.error) +
                     (ptx.log.empty() ? "" : ": " + ptx.log);
  } catch (const std::exception& error) {
    finding.status = Status::problem;
    finding.detail = error.what();
  }
  finding.fix = "reinstall the CUDA toolkit's NVRTC, or point XGPU_NVRTC_LIBRARY at a working one";
  return finding;
}

}  // namespace

Findings check_backend_choice() {
  Findings findings;
  try {
    const std::vector<std::string> order = xgpu::backend_order();
    for (const Device& device : xgpu::devices()) {
      if (!ext::is_gpu(device.info())) continue;  // not a simulator claiming every type
      Finding finding{kChoice,
                      "device " + std::to_string(device.index()) + " " + device.info().name,
                      Status::ok,
                      {},
                      {}};
      std::vector<std::string> others;
      for (const Device& alias : device.aliases()) others.push_back(alias.selector());
      finding.detail = "uses " + device.selector() + ", " +
                       (others.empty() ? "the only module that sees it"
                                       : order_reason(order) + "; also seen as " + joined(others));
      findings.push_back(finding);
    }
    if (findings.empty()) {
      findings.push_back({kChoice,
                          "GPUs",
                          Status::not_applicable,
                          "no GPU visible; order: " + joined(order, ","),
                          {}});
    }
  } catch (const Error& error) {
    // A bad XGPU_BACKEND_ORDER or XGPU_VISIBLE_DEVICES: the variable's own line is the ✘.
    findings.push_back(
        {kChoice, "GPUs", Status::not_applicable, std::string("not checked: ") + error.what(), {}});
  }
  return findings;
}

Findings check_nvrtc() {
  const BackendReport* cuda = nullptr;
  const std::vector<BackendReport> reports = xgpu::backends();
  for (const BackendReport& report : reports) {
    if (report.name == "cuda" && report.loaded) cuda = &report;
  }
  if (cuda == nullptr) {
    return {{kNvrtc, "NVRTC", Status::not_applicable, "not checked: no CUDA module loaded", {}}};
  }
  const xgpu_cuda::NvrtcLibrary& nvrtc = xgpu_cuda::NvrtcLibrary::get();
  if (!nvrtc.loaded) {
    Finding finding{kNvrtc, "NVRTC", Status::problem, "not found: " + nvrtc.why_not, {}};
    if (cuda->driver_absent) {
      // A machine without NVIDIA's driver (a fresh Debian) needs no NVRTC either.
      finding.status = Status::not_applicable;
      finding.detail += "; needed only with NVIDIA's driver, which is not installed here";
    } else {
      finding.fix =
          "install the CUDA toolkit's NVRTC (libnvrtc.so, e.g. Debian's nvidia-cuda-toolkit) "
          "or point XGPU_NVRTC_LIBRARY at it: without it the cuda module builds no kernel";
    }
    return {finding};
  }
  return {{kNvrtc, "NVRTC", Status::ok, nvrtc.version_text() + " (" + nvrtc.path + ")", {}},
          compile_probe(nvrtc)};
}

}  // namespace xgpu::cli::doctor
