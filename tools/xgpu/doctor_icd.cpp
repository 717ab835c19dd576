// The OpenCL ICD loader and the .icd files it reads, checked the way the loader uses them:
// each library is opened with dlopen (xgpu::common::DynamicLibrary; dlerror's text is the
// reason when it fails) and asked for its platforms through clIcdGetPlatformIDsKHR, the
// entry point every ICD exports for the loader. Each platform object an ICD returns starts
// with a pointer to its dispatch table (cl_khr_icd), whose second entry is
// clGetPlatformInfo: calling that is what the loader does, so it works for ICDs that export
// nothing else (Oclgrind's), and it names the .icd at fault, which the loader's merged
// platform list cannot.
#include <dlfcn.h>
#include <sys/stat.h>

#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <xgpu/common/dynamic_library.hpp>
#include <xgpu/common/opencl_loader.hpp>

#include "doctor_system.hpp"

namespace xgpu::cli::doctor {
namespace {

const std::string kSection = "OpenCL loader";
constexpr std::uint32_t kPlatformName = 0x0902;     // CL_PLATFORM_NAME
constexpr std::uint32_t kPlatformVersion = 0x0901;  // CL_PLATFORM_VERSION
// The loader-info parameters (CL_ICDL_VERSION, CL_ICDL_NAME) of ocl-icd and Khronos.
constexpr std::uint32_t kLoaderVersion = 2, kLoaderName = 3, kLoaderVendor = 4;

using GetPlatformIds = std::int32_t (*)(std::uint32_t, void**, std::uint32_t*);
using GetPlatformInfo = std::int32_t (*)(void*, std::uint32_t, std::size_t, void*, std::size_t*);
using GetLoaderInfo = std::int32_t (*)(std::uint32_t, std::size_t, void*, std::size_t*);
using GetExtensionAddress = void* (*)(const char*);

std::string info_string(GetPlatformInfo get, void* platform, std::uint32_t what) {
  char text[512] = {};
  if (get(platform, what, sizeof text - 1, text, nullptr) != 0) return "?";
  return text;
}

bool ends_with(const std::string& text, const std::string& end) {
  return text.size() >= end.size() && text.compare(text.size() - end.size(), end.size(), end) == 0;
}

std::string joined(const std::vector<std::string>& items) {
  std::string text;
  for (const std::string& item : items) text += (text.empty() ? "" : ", ") + item;
  return text;
}

// The platforms an ICD library gives, or why it gives none.
struct IcdPlatforms {
  std::vector<std::string> names;
  std::string problem;
};

// A function the library exports, else one it hands out through its
// clGetExtensionFunctionAddress (how the ICD and loader extensions are reached).
template <class Function>
Function exported_or_extension(const common::DynamicLibrary& library, const char* name) {
  if (auto function = library.function<Function>(name)) return function;
  auto address = library.function<GetExtensionAddress>("clGetExtensionFunctionAddress");
  return address ? reinterpret_cast<Function>(address(name)) : nullptr;
}

IcdPlatforms platforms_of(const common::DynamicLibrary& library) {
  IcdPlatforms result;
  auto get_ids = exported_or_extension<GetPlatformIds>(library, "clIcdGetPlatformIDsKHR");
  if (get_ids == nullptr) {
    result.problem = "not an OpenCL ICD: no clIcdGetPlatformIDsKHR";
    return result;
  }
  std::uint32_t count = 0;
  const std::int32_t status = get_ids(0, nullptr, &count);
  if (status != 0 || count == 0) {
    result.problem = "gives no platform (clIcdGetPlatformIDsKHR: status " + std::to_string(status) +
                     ", " + std::to_string(count) + " platforms)";
    return result;
  }
  std::vector<void*> platforms(count);
  if (get_ids(count, platforms.data(), nullptr) != 0) {
    result.problem = "clIcdGetPlatformIDsKHR failed on the second call";
    return result;
  }
  for (void* platform : platforms) {
    if (platform == nullptr) continue;  // a broken ICD may fill in fewer than it counted
    void* const* dispatch = *static_cast<void* const* const*>(platform);
    auto get_info = dispatch ? reinterpret_cast<GetPlatformInfo>(dispatch[1]) : nullptr;
    result.names.push_back(get_info == nullptr
                               ? std::string("?")
                               : info_string(get_info, platform, kPlatformName) + " (" +
                                     info_string(get_info, platform, kPlatformVersion) + ")");
  }
  return result;
}

Finding library_finding(const std::string& subject, const std::string& library) {
  Finding finding{kSection, subject, Status::ok, {}, {}};
  // Kept open: the loader opens the same libraries, and some drivers do not unload cleanly.
  const common::DynamicLibrary handle = common::DynamicLibrary::open_path(library);
  if (!handle.loaded()) {
    finding.status = Status::problem;
    finding.detail = library + " does not load: " + handle.why_not();
    finding.fix = "install the driver package that provides " + library + ", or delete " + subject +
                  " if that driver is gone";
    return finding;
  }
  const IcdPlatforms platforms = platforms_of(handle);
  if (!platforms.problem.empty()) {
    finding.status = Status::problem;
    finding.detail = library + " loads but " + platforms.problem;
    finding.fix =
        "the driver found no device: see its vendor's checks below (kernel module, device "
        "nodes, groups)";
    return finding;
  }
  finding.detail = library + " loads; platforms: " + joined(platforms.names);
  return finding;
}

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::stringstream in(text);
  std::string part;
  while (std::getline(in, part, separator)) {
    if (!part.empty()) parts.push_back(part);
  }
  return parts;
}

bool is_folder(const std::string& path) {
  struct stat info {};
  return stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode);
}

}  // namespace

IcdEnvironment IcdEnvironment::current() {
  auto value = [](const char* name) {
    const char* text = std::getenv(name);
    return std::string(text ? text : "");
  };
  return {value("OCL_ICD_VENDORS"), value("OPENCL_VENDOR_PATH"), value("OCL_ICD_FILENAMES")};
}

IcdPlan plan_icds(const std::string& root, const IcdEnvironment& environment) {
  IcdPlan plan;
  std::string folder = under(root, "/etc/OpenCL/vendors");
  plan.why = "the default";
  if (!environment.vendor_path.empty()) {
    folder = environment.vendor_path;
    plan.why = "OPENCL_VENDOR_PATH";
  }
  plan.where = folder;
  const std::string& vendors = environment.vendors;
  if (!vendors.empty() && is_folder(vendors)) {
    plan.where = vendors;
    plan.why = "OCL_ICD_VENDORS";
  } else if (!vendors.empty() && ends_with(vendors, ".icd")) {
    plan.where = vendors.find('/') == std::string::npos ? folder + "/" + vendors : vendors;
    plan.why = "OCL_ICD_VENDORS, one .icd file";
    plan.icd_files.push_back(plan.where);
  } else if (!vendors.empty()) {
    plan.why = "OCL_ICD_VENDORS names a library, which ocl-icd loads instead of any .icd file";
    plan.where = vendors;
    plan.libraries.push_back(vendors);
  }
  if (plan.icd_files.empty() && plan.libraries.empty()) {
    if (!is_folder(plan.where)) {
      plan.problem = "missing or not a folder";
    } else {
      for (const std::string& name : names_in(plan.where)) {
        if (ends_with(name, ".icd")) plan.icd_files.push_back(plan.where + "/" + name);
      }
    }
  }
  for (const std::string& library : split(environment.filenames, ':')) {
    plan.libraries.push_back(library);
  }
  return plan;
}

Findings check_icd_files(const IcdPlan& plan) {
  Findings findings;
  Finding folder{kSection, "ICD folder", Status::ok, plan.where + " (" + plan.why + ")", {}};
  if (!plan.problem.empty()) {
    folder.status = Status::problem;
    folder.detail = plan.where + " (" + plan.why + "): " + plan.problem;
    folder.fix =
        "install an OpenCL driver (PoCL for the CPU: sudo apt install pocl-opencl-icd), "
        "or point OCL_ICD_VENDORS at a folder of .icd files";
  } else if (plan.icd_files.empty() && plan.libraries.empty()) {
    folder.status = Status::problem;
    folder.detail += ": no .icd file";
    folder.fix = "install an OpenCL driver: its package adds an .icd file there";
  }
  findings.push_back(folder);
  for (const std::string& file : plan.icd_files) {
    const auto library = first_line(file);
    if (!library || library->empty()) {
      findings.push_back({kSection, file, Status::problem, "empty or unreadable",
                          "its first line must name the driver's library; reinstall the "
                          "driver or delete the file"});
      continue;
    }
    findings.push_back(library_finding(file, *library));
  }
  for (const std::string& library : plan.libraries) {
    findings.push_back(library_finding(library, library));
  }
  return findings;
}

Findings check_icd_loader() {
  Finding loader{kSection, "ICD loader", Status::ok, {}, {}};
  const common::DynamicLibrary handle = common::DynamicLibrary::open_path("libOpenCL.so.1");
  if (!handle.loaded()) {
    loader.status = Status::problem;
    loader.detail = "libOpenCL.so.1 does not load: " + handle.why_not();
    loader.fix = common::kOpenClLoaderFix;
    return {loader};
  }
  // The file that served: where the dynamic linker found one of its functions.
  std::string file = "libOpenCL.so.1";
  Dl_info where{};
  void* any_function = handle.symbol("clGetPlatformIDs");
  if (any_function && dladdr(any_function, &where) != 0 && where.dli_fname) {
    char resolved[4096];
    file = realpath(where.dli_fname, resolved) ? resolved : where.dli_fname;
  }
  std::string about;
  // ocl-icd names it clGetICDLoaderInfoOCLICD, the Khronos loader adds "Ext"; both hand it
  // out as an extension function, and some builds also export it.
  GetLoaderInfo loader_info = nullptr;
  for (const char* name : {"clGetICDLoaderInfoOCLICD", "clGetICDLoaderInfoOCLICDExt"}) {
    if (loader_info == nullptr) loader_info = exported_or_extension<GetLoaderInfo>(handle, name);
  }
  if (loader_info) {
    // The vendor tells the loaders apart: "OCL Icd free software" is ocl-icd.
    char name[128] = {}, version[64] = {}, vendor[128] = {};
    loader_info(kLoaderName, sizeof name - 1, name, nullptr);
    loader_info(kLoaderVersion, sizeof version - 1, version, nullptr);
    loader_info(kLoaderVendor, sizeof vendor - 1, vendor, nullptr);
    about = std::string(name) + " " + version + (vendor[0] ? ", " + std::string(vendor) : "");
  }
  loader.detail =
      file + (about.empty() ? " (does not say its name or version)" : " (" + about + ")");
  Findings findings{loader};

  // The loader's own list: the platforms a program linking libOpenCL sees.
  auto get_ids = handle.function<GetPlatformIds>("clGetPlatformIDs");
  auto get_info = handle.function<GetPlatformInfo>("clGetPlatformInfo");
  std::uint32_t count = 0;
  if (get_ids == nullptr || get_info == nullptr || get_ids(0, nullptr, &count) != 0) count = 0;
  std::vector<void*> platforms(count);
  if (count > 0 && get_ids(count, platforms.data(), nullptr) != 0) platforms.clear();
  std::vector<std::string> names;
  for (void* platform : platforms) names.push_back(info_string(get_info, platform, kPlatformName));
  if (names.empty()) {
    findings.push_back({kSection, "platforms", Status::problem, "the loader lists no platform",
                        "see the .icd files below: each names a driver library that must load "
                        "and find a device"});
  } else {
    findings.push_back({kSection,
                        "platforms",
                        Status::ok,
                        std::to_string(names.size()) + ": " + joined(names),
                        {}});
  }
  return findings;
}

}  // namespace xgpu::cli::doctor
