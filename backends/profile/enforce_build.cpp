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
#include "enforce.hpp"
#include "xgpu/common/errors.hpp"

namespace xgpu::profile {
namespace {

void check_std(const ProfileDevice& device, const std::string& option) {
  const drivers::Version asked = drivers::cl_std_version(option);
  if (asked.empty()) return;
  const DeviceCaps& profile = device.caps;
  const DeviceCaps& backing = device.backing_caps;
  if (asked > profile.language)
    common::fail(kClInvalidBuildOptions, device.label + " supports OpenCL C " +
                                             profile.language.text() + "; the build asked for " +
                                             option);
  if (asked > backing.language)
    common::fail(kClInvalidBuildOptions,
                 "the backing device " + backing.name + " supports OpenCL C " +
                     backing.language.text() +
                     " (its limit, not the profile's); the build asked for " + option);
}

// The built-ins of an optional feature, each #defined to a name that says what is missing, so
// a kernel using one fails to build with that name in the log, as on a device without the
// feature (the double trick above). Only the kernel's source sees these: the backing
// compiler's own declarations come first.
constexpr const char* kSubGroupBuiltins[] = {"get_sub_group_size",
                                             "get_max_sub_group_size",
                                             "get_num_sub_groups",
                                             "get_enqueued_num_sub_groups",
                                             "get_sub_group_id",
                                             "get_sub_group_local_id",
                                             "sub_group_barrier",
                                             "sub_group_all",
                                             "sub_group_any",
                                             "sub_group_broadcast",
                                             "sub_group_reduce_add",
                                             "sub_group_reduce_min",
                                             "sub_group_reduce_max",
                                             "sub_group_scan_exclusive_add",
                                             "sub_group_scan_exclusive_min",
                                             "sub_group_scan_exclusive_max",
                                             "sub_group_scan_inclusive_add",
                                             "sub_group_scan_inclusive_min",
                                             "sub_group_scan_inclusive_max",
                                             "intel_sub_group_shuffle",
                                             "intel_sub_group_shuffle_down",
                                             "intel_sub_group_shuffle_up",
                                             "intel_sub_group_shuffle_xor",
                                             "intel_sub_group_block_read",
                                             "intel_sub_group_block_write"};
constexpr const char* kImageNames[] = {"image1d_t",
                                       "image1d_array_t",
                                       "image1d_buffer_t",
                                       "image2d_t",
                                       "image2d_array_t",
                                       "image2d_depth_t",
                                       "image2d_array_depth_t",
                                       "image3d_t",
                                       "sampler_t",
                                       "read_imagef",
                                       "read_imagei",
                                       "read_imageui",
                                       "read_imageh",
                                       "write_imagef",
                                       "write_imagei",
                                       "write_imageui",
                                       "write_imageh",
                                       "get_image_width",
                                       "get_image_height",
                                       "get_image_depth",
                                       "get_image_dim",
                                       "get_image_channel_data_type",
                                       "get_image_channel_order",
                                       "get_image_array_size"};

void hide(std::string& prelude, const char* name, const char* missing) {
  prelude += std::string("#define ") + name + " " + missing + "\n";
}

// Sub-groups: cl_khr_subgroups, Intel's own, or the sub-group sizes a profile states (an
// OpenCL 3.0 device without the extension, like Intel's NEO).
bool has_sub_groups(const DeviceCaps& caps, const nlohmann::json* profile) {
  if (caps.extensions.count("cl_khr_subgroups") || caps.extensions.count("cl_intel_subgroups"))
    return true;
  if (!profile || !profile->contains("vendor_extras") || !(*profile)["vendor_extras"].is_object())
    return false;
  const nlohmann::json& extras = (*profile)["vendor_extras"];
  return extras.contains("sub_group_sizes") && extras["sub_group_sizes"].is_string() &&
         !extras["sub_group_sizes"].get<std::string>().empty();
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
  // The constant buffer check reads which arguments are __constant from the argument info,
  // which a driver need only keep for a program built with this option (the core always
  // passes it; a caller of the module's table may not).
  if (text.find("-cl-kernel-arg-info") == std::string::npos)
    return text + (text.empty() ? "" : " ") + "-cl-kernel-arg-info";
  return text;
}

std::string source_prelude(const ProfileDevice& device) {
  std::string prelude;
  for (const std::string& extension : device.backing_caps.extensions)
    if (!device.caps.extensions.count(extension)) prelude += "#undef " + extension + "\n";
  if (device.backing_caps.fp64 && !device.caps.fp64)
    prelude +=
        "#undef cl_khr_fp64\n#undef __opencl_c_fp64\n"
        "#define double cl_khr_fp64_is_missing_on_this_device\n";
  // OpenCL C 3.0's feature macros go with their extensions: a kernel that tests
  // __opencl_c_subgroups (say) must build its fallback, as on the real device.
  if (device.backing_caps.fp16 && !device.caps.fp16)
    prelude += "#undef cl_khr_fp16\n#undef __opencl_c_fp16\n";
  if (device.backing_caps.images && !device.caps.images) {
    prelude +=
        "#undef __IMAGE_SUPPORT__\n#undef __opencl_c_images\n#undef __opencl_c_read_write_images\n"
        "#undef __opencl_c_3d_image_writes\n";
    for (const char* name : kImageNames)
      hide(prelude, name, "image_support_is_missing_on_this_device");
  }
  if (!has_sub_groups(device.caps, &device.file.device)) {
    prelude += "#undef __opencl_c_subgroups\n";
    for (const char* name : kSubGroupBuiltins)
      hide(prelude, name, "cl_khr_subgroups_is_missing_on_this_device");
  }
  // The kernel's own line numbers in build logs.
  if (!prelude.empty()) prelude += "#line 1\n";
  return prelude;
}

}  // namespace xgpu::profile
