// `xgpu doctor`: why a device is missing. Each check is a small function returning findings
// (ok, problem with its fix, or not applicable); the command prints them as a checklist or
// JSON. Checks that read the system take a root folder ("/" normally) so that tests can
// build a fake system (device nodes, /proc, /sys, libraries) in a temporary folder.
#pragma once

#include <sys/types.h>

#include <iosfwd>
#include <map>
#include <string>
#include <vector>

#include "color.hpp"

namespace xgpu::cli::doctor {

enum class Status { ok, problem, not_applicable };

struct Finding {
  std::string section;  ///< "OpenCL loader", "NVIDIA", "xgpu", "Kernel cache", ...
  std::string subject;  ///< what was checked: "pocl.icd", "kernel module", ...
  Status status = Status::ok;
  std::string detail;  ///< what was found
  std::string fix;     ///< for a problem: what to do about it
};
using Findings = std::vector<Finding>;

/// Who is asking: decides whether a device node's owner, group and mode let them in.
struct Identity {
  uid_t uid = 0;
  std::string user;
  std::vector<gid_t> groups;  ///< this session's groups (getgroups() and the effective gid)
  static Identity current();
};

// ---- the OpenCL ICD loader and its .icd files (doctor_icd.cpp) -----------------------------

/// The ICD loader's environment variables, as read from the process environment.
struct IcdEnvironment {
  std::string vendors;      ///< OCL_ICD_VENDORS
  std::string vendor_path;  ///< OPENCL_VENDOR_PATH (ocl-icd only)
  std::string filenames;    ///< OCL_ICD_FILENAMES, ':'-separated libraries
  static IcdEnvironment current();
};

/// Which .icd files and libraries the loader reads, and why (ocl-icd's rules: a folder in
/// OCL_ICD_VENDORS replaces /etc/OpenCL/vendors, a *.icd file there is read alone, anything
/// else is a library name).
struct IcdPlan {
  std::string where;  ///< the folder or file, as the loader sees it
  std::string why;    ///< "OCL_ICD_VENDORS", "the default", ...
  std::vector<std::string> icd_files;
  std::vector<std::string> libraries;  ///< named directly (OCL_ICD_FILENAMES, OCL_ICD_VENDORS)
  std::string problem;                 ///< the folder is missing or unreadable
};
IcdPlan plan_icds(const std::string& root, const IcdEnvironment& environment);

/// The loader library itself: its file, its name and version when it says, its platforms.
Findings check_icd_loader();
/// The folder in use, then each .icd file: its library loads (or dlerror's text), and the
/// platforms it gives (its clIcdGetPlatformIDsKHR, and clGetPlatformInfo through the ICD
/// dispatch table every ICD platform object starts with).
Findings check_icd_files(const IcdPlan& plan);

// ---- vendor drivers, under a root folder (doctor_nvidia.cpp, doctor_dri.cpp) --------------

Findings check_nvidia(const std::string& root, const Identity& who);
Findings check_amd(const std::string& root, const Identity& who);
Findings check_intel(const std::string& root, const Identity& who);

// ---- xgpu itself (doctor_xgpu.cpp, doctor_cache.cpp) ---------------------------------------

/// The module folders, each module found (loaded, refused, or found no device), the devices.
Findings check_modules();
/// Each visible GPU: the module that serves it and why (the only one that sees it, or first in
/// the backend order), and the modules it is also seen through (doctor_backends.cpp).
Findings check_backend_choice();
/// With the CUDA module loaded: NVRTC found (path, version) and a kernel compiled to PTX;
/// not applicable where the module is absent, or NVRTC is too and so is NVIDIA's driver.
Findings check_nvrtc();
/// Every XGPU_* variable in `environment`: what it does, or why its value is wrong.
Findings check_variables(const std::map<std::string, std::string>& environment);
/// Every XGPU_* variable of this process.
std::map<std::string, std::string> xgpu_environment();
/// The kernel cache: folder, owner and mode, writable, size against the cap, bad entries.
Findings check_cache();

// ---- the settings (doctor_settings.cpp): `xgpu doctor --settings` ---------------------------
struct SettingLine {
  std::string name;
  std::string value;    ///< as set, or the default in words
  std::string source;   ///< "environment" or "default"
  std::string problem;  ///< for a value set: what is wrong with it (xgpu::check_setting)
};
/// Every setting of the registry, in its order, as this process reads it.
std::vector<SettingLine> settings_lines();
/// A table of them, then a line per problem.
void print_settings(std::ostream& out, const std::vector<SettingLine>& lines, const Style& style);
/// {"schema_version": 1, "settings": [{"name", "value", "source", "problem"?}]}
std::string settings_json(const std::vector<SettingLine>& lines);

// ---- the report (doctor_report.cpp) --------------------------------------------------------

struct Symbols {
  const char* ok;
  const char* problem;
  const char* not_applicable;
};
/// ✔ ✘ – when the locale's character set is UTF-8 and `ascii` is false; else [ ok ] ...
Symbols symbols(bool ascii);

std::size_t count_problems(const Findings& findings);
/// "all good: ..." or "N things to fix ...".
std::string verdict(const Findings& findings);
/// The checklist: a heading per section, a line per finding, the fix under each problem.
void print_checklist(std::ostream& out, const Findings& findings, const Symbols& marks, bool color);
/// The JSON document of docs/doctor.md (schema_version 1).
std::string to_json(const Findings& findings);

}  // namespace xgpu::cli::doctor
