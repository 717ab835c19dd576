// What the vendor checks of `xgpu doctor` read from a system under a root folder: PCI
// display devices, kernel modules, device nodes and who may open them, group names,
// libraries on the usual paths, .icd files. "/" is the real system; tests pass a fake one.
#pragma once

#include <sys/stat.h>

#include <optional>
#include <string>
#include <vector>

#include "doctor.hpp"

namespace xgpu::cli::doctor {

/// `path` (absolute, e.g. "/dev/kfd") under `root`.
std::string under(const std::string& root, const std::string& path);

/// The first line of a file, without its newline; nothing when it cannot be read.
std::optional<std::string> first_line(const std::string& file);

/// Names in a folder starting with `prefix`, sorted; empty when the folder is missing.
std::vector<std::string> names_in(const std::string& folder, const std::string& prefix = "");

/// A PCI device of class display (0x03) or processing accelerator (0x12).
struct PciDevice {
  std::string address;  ///< "0000:01:00.0"
  unsigned vendor = 0;
  std::string driver;  ///< the bound kernel driver, empty when none
};
std::vector<PciDevice> pci_display_devices(const std::string& root, unsigned vendor);

/// Whether a kernel module is loaded: /proc/modules lists it, or /sys/module/<name> exists.
bool kernel_module_loaded(const std::string& root, const std::string& name);

/// The group's name from <root>/etc/group, else "gid N".
std::string group_name(const std::string& root, gid_t gid);
/// Whether <root>/etc/group lists `user` as a member of `gid`.
bool group_file_lists(const std::string& root, gid_t gid, const std::string& user);

/// One finding on a device node: missing, or whether its owner, group and mode let `who`
/// read and write it (by membership, not access(2): root passes access(2) for any node).
Finding node_finding(const std::string& root, const std::string& section, const std::string& node,
                     const Identity& who);

/// The first of `names` found in the usual library folders under root (the multiarch
/// folders, /usr/lib64, /usr/local/lib, ld.so.conf's folders, and `extra_folders`), or
/// LD_LIBRARY_PATH when root is "/". Returns the full path under root, or nothing.
std::optional<std::string> find_library(const std::string& root,
                                        const std::vector<std::string>& names,
                                        const std::vector<std::string>& extra_folders = {});

/// .icd files in <root>/etc/OpenCL/vendors whose name or first line contains `word`.
std::vector<std::string> icd_files_mentioning(const std::string& root, const std::string& word);

/// The render nodes (/dev/dri/renderD*) of a PCI vendor, as "/dev/dri/renderD128"; a node
/// whose vendor sysfs does not say is counted for every vendor.
std::vector<std::string> render_nodes(const std::string& root, unsigned vendor);

}  // namespace xgpu::cli::doctor
