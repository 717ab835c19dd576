// The usual reasons an AMD or Intel GPU is missing: both are driven through /dev/dri render
// nodes (and AMD's compute also through /dev/kfd), which the user must be allowed to open
// (group render or video), and both need their vendor's OpenCL runtime: ROCm's libamdocl64
// for AMD, the NEO compute runtime's libigdrcl for Intel.
#include <algorithm>
#include <cstdio>

#include "doctor_system.hpp"

namespace xgpu::cli::doctor {
namespace {

constexpr unsigned kAmd = 0x1002, kIntel = 0x8086;

struct Vendor {
  std::string section;
  unsigned pci_id;
  std::vector<std::string> kernel_modules;  ///< any of them
  std::vector<std::string> runtime_libraries;
  std::vector<std::string> runtime_folders;  ///< besides the usual library folders
  std::string icd_word;                      ///< in an .icd file's name or library
  std::string runtime_fix;
};

const Vendor& amd() {
  static const Vendor vendor{
      "AMD",
      kAmd,
      {"amdgpu"},
      {"libamdocl64.so"},
      {"/opt/rocm/lib", "/opt/rocm/opencl/lib"},
      "amdocl",
      "install ROCm's OpenCL runtime (Debian/Ubuntu with AMD's repository: sudo apt install "
      "rocm-opencl-runtime; see AMD's ROCm install guide)"};
  return vendor;
}

const Vendor& intel() {
  static const Vendor vendor{
      "Intel",
      kIntel,
      {"i915", "xe"},
      {"libigdrcl.so"},
      {"/usr/lib/x86_64-linux-gnu/intel-opencl", "/usr/local/lib/intel-opencl"},
      "igdrcl",
      "install Intel's NEO compute runtime (Debian/Ubuntu: sudo apt install intel-opencl-icd; "
      "see github.com/intel/compute-runtime for newer GPUs)"};
  return vendor;
}

bool any_module_loaded(const std::string& root, const Vendor& vendor) {
  return std::any_of(vendor.kernel_modules.begin(), vendor.kernel_modules.end(),
                     [&](const std::string& name) { return kernel_module_loaded(root, name); });
}

std::string module_names(const Vendor& vendor) {
  std::string names;
  for (const std::string& name : vendor.kernel_modules) {
    names += (names.empty() ? "" : " or ") + name;
  }
  return names;
}

Finding kernel_module_finding(const std::string& root, const Vendor& vendor) {
  if (any_module_loaded(root, vendor)) {
    return {vendor.section, "kernel module", Status::ok, module_names(vendor) + " loaded", {}};
  }
  return {vendor.section, "kernel module", Status::problem,
          module_names(vendor) + " is not loaded (not in /proc/modules nor /sys/module)",
          "sudo modprobe " + vendor.kernel_modules.front() +
              "; if that fails, install the firmware (linux-firmware) and a kernel that "
              "supports this GPU"};
}

Findings render_node_findings(const std::string& root, const Vendor& vendor, const Identity& who) {
  const std::vector<std::string> nodes = render_nodes(root, vendor.pci_id);
  if (nodes.empty()) {
    return {{vendor.section, "/dev/dri/renderD*", Status::problem, "no render node",
             "the kernel driver did not create one (see the kernel module above); in a "
             "container, pass the node in: docker run --device=/dev/dri"}};
  }
  Findings findings;
  for (const std::string& node : nodes) {
    findings.push_back(node_finding(root, vendor.section, node, who));
  }
  return findings;
}

Finding runtime_finding(const std::string& root, const Vendor& vendor) {
  const std::string subject = "OpenCL runtime";
  if (auto path = find_library(root, vendor.runtime_libraries, vendor.runtime_folders)) {
    return {vendor.section, subject, Status::ok, "found: " + *path, {}};
  }
  const std::vector<std::string> icds = icd_files_mentioning(root, vendor.icd_word);
  if (!icds.empty()) return {vendor.section, subject, Status::ok, "listed by " + icds[0], {}};
  return {vendor.section, subject, Status::problem,
          "no " + vendor.runtime_libraries.front() + " and no ." + "icd naming it",
          vendor.runtime_fix};
}

// The signs of the vendor's hardware: none at all means the vendor does not apply.
bool hardware_present(const std::string& root, const Vendor& vendor,
                      const std::vector<PciDevice>& gpus) {
  if (!gpus.empty() || any_module_loaded(root, vendor)) return true;
  if (vendor.pci_id == kAmd && !names_in(under(root, "/dev"), "kfd").empty()) return true;
  // A render node whose sysfs names this vendor (an unnamed one could be anyone's).
  for (const std::string& node : names_in(under(root, "/dev/dri"), "renderD")) {
    if (first_line(under(root, "/sys/class/drm/" + node + "/device/vendor")).value_or("") ==
        (vendor.pci_id == kAmd ? "0x1002" : "0x8086")) {
      return true;
    }
  }
  return false;
}

Findings check_vendor(const std::string& root, const Identity& who, const Vendor& vendor) {
  const std::vector<PciDevice> gpus = pci_display_devices(root, vendor.pci_id);
  if (!hardware_present(root, vendor, gpus)) {
    char id[8];
    std::snprintf(id, sizeof id, "%04x", vendor.pci_id);
    return {{vendor.section,
             "hardware",
             Status::not_applicable,
             "no " + vendor.section + " GPU (no PCI display device " + id + ", no " +
                 module_names(vendor) + " module" +
                 (vendor.pci_id == kAmd ? ", no /dev/kfd)" : ")"),
             {}}};
  }
  Findings findings;
  for (const PciDevice& gpu : gpus) {
    findings.push_back({vendor.section,
                        "GPU " + gpu.address,
                        Status::ok,
                        "driver " + (gpu.driver.empty() ? std::string("none bound") : gpu.driver),
                        {}});
  }
  findings.push_back(kernel_module_finding(root, vendor));
  if (vendor.pci_id == kAmd) {
    Finding kfd = node_finding(root, vendor.section, "/dev/kfd", who);
    if (kfd.detail == "missing") {
      kfd.detail = "missing: no ROCm compute (KFD) in this kernel";
      kfd.fix =
          "use a kernel with KFD (CONFIG_HSA_AMD, on in distribution kernels) and the amdgpu "
          "driver; in a container, pass it in: docker run --device=/dev/kfd";
    }
    findings.push_back(kfd);
  }
  for (Finding& node : render_node_findings(root, vendor, who)) {
    findings.push_back(std::move(node));
  }
  findings.push_back(runtime_finding(root, vendor));
  return findings;
}

}  // namespace

Findings check_amd(const std::string& root, const Identity& who) {
  return check_vendor(root, who, amd());
}

Findings check_intel(const std::string& root, const Identity& who) {
  return check_vendor(root, who, intel());
}

}  // namespace xgpu::cli::doctor
