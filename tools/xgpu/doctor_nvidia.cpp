// The usual reasons an NVIDIA GPU is missing: no kernel module (or nouveau bound instead),
// no /dev/nvidia* nodes, no libnvidia-opencl / libcuda, a user-space driver that does not
// match the loaded kernel module (updated without a reboot).
#include <cstdlib>
#include <regex>

#include "doctor_system.hpp"

namespace xgpu::cli::doctor {
namespace {

constexpr unsigned kNvidia = 0x10de;
const std::string kSection = "NVIDIA";

// "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.14  Thu Feb 22 ..." -> 550.54.14.
std::string kernel_driver_version(const std::string& root) {
  const auto line = first_line(under(root, "/proc/driver/nvidia/version"));
  std::smatch match;
  if (line && std::regex_search(*line, match, std::regex(R"(Kernel Module\s+([0-9][0-9.]+))"))) {
    return match[1];
  }
  return {};
}

// libcuda.so.1 is a link to libcuda.so.<driver version>.
std::string library_version(const std::string& path) {
  char resolved[4096];
  if (realpath(path.c_str(), resolved) == nullptr) return {};
  std::smatch match;
  const std::string name = resolved;
  if (std::regex_search(name, match, std::regex(R"(\.so\.([0-9]+\.[0-9.]+)$)"))) return match[1];
  return {};
}

Finding kernel_module_finding(const std::string& root, const std::vector<PciDevice>& gpus) {
  Finding finding{kSection, "kernel module", Status::ok, {}, {}};
  for (const PciDevice& gpu : gpus) {
    if (gpu.driver == "nouveau") {
      finding.status = Status::problem;
      finding.detail = "the GPU at " + gpu.address + " is driven by nouveau, which has no compute";
      finding.fix =
          "install NVIDIA's driver (e.g. sudo apt install nvidia-driver), which blacklists "
          "nouveau, then reboot";
      return finding;
    }
  }
  if (kernel_module_loaded(root, "nvidia")) {
    const std::string version = kernel_driver_version(root);
    finding.detail = "nvidia loaded" + (version.empty() ? "" : ", driver " + version);
    return finding;
  }
  finding.status = Status::problem;
  finding.detail = "nvidia is not loaded (not in /proc/modules nor /sys/module)";
  finding.fix =
      "sudo modprobe nvidia; if that fails, (re)install the NVIDIA driver for this kernel "
      "(its DKMS package builds the module) and reboot";
  return finding;
}

Findings device_node_findings(const std::string& root, const Identity& who) {
  Findings findings;
  std::vector<std::string> nodes;
  for (const std::string& name : names_in(under(root, "/dev"), "nvidia")) {
    if (name == "nvidiactl" || std::regex_match(name, std::regex("nvidia[0-9]+"))) {
      nodes.push_back("/dev/" + name);
    }
  }
  if (nodes.empty()) {
    findings.push_back(
        {kSection, "device nodes", Status::problem, "no /dev/nvidiactl or /dev/nvidia0",
         "run nvidia-smi once as root (it creates them) or install nvidia-modprobe; in a "
         "container, start it with the NVIDIA Container Toolkit (docker run --gpus all)"});
    return findings;
  }
  for (const std::string& node : nodes) findings.push_back(node_finding(root, kSection, node, who));
  return findings;
}

Finding library_finding(const std::string& root, const std::string& name, const std::string& role,
                        const std::string& package, std::string* path_out = nullptr) {
  const auto path = find_library(root, {name}, {"/usr/local/cuda/lib64", "/usr/lib/nvidia"});
  if (path) {
    if (path_out) *path_out = *path;
    return {kSection, name, Status::ok, "found: " + *path + " (" + role + ")", {}};
  }
  return {kSection, name, Status::problem, "not found on the library path (" + role + ")",
          "install " + package +
              " (the driver's user-space part; in a container the NVIDIA "
              "Container Toolkit mounts it)"};
}

}  // namespace

Findings check_nvidia(const std::string& root, const Identity& who) {
  const std::vector<PciDevice> gpus = pci_display_devices(root, kNvidia);
  const bool nodes = !names_in(under(root, "/dev"), "nvidia").empty();
  const bool module = kernel_module_loaded(root, "nvidia");
  if (gpus.empty() && !nodes && !module) {
    return {{kSection,
             "hardware",
             Status::not_applicable,
             "no NVIDIA GPU (no PCI display device 10de, no /dev/nvidia*, no nvidia module)",
             {}}};
  }
  Findings findings;
  for (const PciDevice& gpu : gpus) {
    findings.push_back({kSection,
                        "GPU " + gpu.address,
                        Status::ok,
                        "driver " + (gpu.driver.empty() ? std::string("none bound") : gpu.driver),
                        {}});
  }
  findings.push_back(kernel_module_finding(root, gpus));
  for (Finding& node : device_node_findings(root, who)) findings.push_back(std::move(node));
  findings.push_back(library_finding(root, "libnvidia-opencl.so.1", "OpenCL",
                                     "the NVIDIA OpenCL ICD (Debian/Ubuntu: nvidia-opencl-icd "
                                     "or libnvidia-compute-<version>)"));
  std::string cuda_path;
  findings.push_back(library_finding(root, "libcuda.so.1", "CUDA driver API",
                                     "libcuda1 / libnvidia-compute-<version>", &cuda_path));
  const std::string kernel_version = kernel_driver_version(root);
  const std::string user_version = cuda_path.empty() ? "" : library_version(cuda_path);
  if (!kernel_version.empty() && !user_version.empty() && kernel_version != user_version) {
    findings.push_back({kSection, "driver version", Status::problem,
                        "kernel module " + kernel_version + ", libcuda " + user_version,
                        "the driver was updated but the old kernel module is still loaded: "
                        "reboot (or unload and reload the nvidia modules)"});
  }
  return findings;
}

}  // namespace xgpu::cli::doctor
