// Build limits: the OpenCL C version a build may ask for, and the extension macros a kernel
// sees.
//
// Hiding fp64 from a kernel built by a driver that has it: the prelude #undefs cl_khr_fp64
// (so `#ifdef cl_khr_fp64` paths are not taken), and #defines `double` to an identifier that
// says why, so a kernel that uses double anyway fails to build with that identifier in the
// log, as a driver without fp64 would refuse it. A macro is used rather than clang's
// -cl-ext=-cl_khr_fp64 because the driver under the profile need not be clang-based nor
// pass that option on; the driver's own headers are included before the source, so their
// declarations are untouched.
#include <cstdio>

#include "enforce.hpp"
#include "xgpu/common/errors.hpp"

namespace xgpu::profile {
namespace {

std::string version_text(int major, int minor) {
  return std::to_string(major) + "." + std::to_string(minor);
}

void check_std(const ProfileDevice& device, const std::string& option) {
  int major = 0, minor = 0;
  if (std::sscanf(option.c_str(), "-cl-std=CL%d.%d", &major, &minor) != 2) return;
  const DeviceCaps& profile = device.caps;
  const DeviceCaps& backing = device.backing_caps;
  const int asked = major * 10 + minor;
  if (asked > profile.language_major * 10 + profile.language_minor)
    common::fail(kClInvalidBuildOptions,
                 device.label + " supports OpenCL C " +
                     version_text(profile.language_major, profile.language_minor) +
                     "; the build asked for " + option);
  if (asked > backing.language_major * 10 + backing.language_minor)
    common::fail(kClInvalidBuildOptions,
                 "the backing device " + backing.name + " supports OpenCL C " +
                     version_text(backing.language_major, backing.language_minor) +
                     " (its limit, not the profile's); the build asked for " + option);
}

}  // namespace

std::string build_options(ProfileDevice& device, const char* options) {
  const std::string text = options ? options : "";
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    check_std(device, text.substr(start, end - start));
    start = end + 1;
  }
  return text;
}

std::string source_prelude(const ProfileDevice& device) {
  std::string prelude;
  for (const std::string& extension : device.backing_caps.extensions)
    if (!device.caps.extensions.count(extension)) prelude += "#undef " + extension + "\n";
  if (device.backing_caps.fp64 && !device.caps.fp64)
    prelude += "#undef cl_khr_fp64\n#define double cl_khr_fp64_is_missing_on_this_device\n";
  if (device.backing_caps.fp16 && !device.caps.fp16) prelude += "#undef cl_khr_fp16\n";
  if (device.backing_caps.images && !device.caps.images) prelude += "#undef __IMAGE_SUPPORT__\n";
  // The kernel's own line numbers in build logs.
  if (!prelude.empty()) prelude += "#line 1\n";
  return prelude;
}

}  // namespace xgpu::profile
