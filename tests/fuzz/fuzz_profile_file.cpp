// libFuzzer target for profile files (any JSON that XGPU_PROFILE names): read_profile_file
// accepts a file or refuses it with common::Failure naming the file, and the version texts
// of an accepted file go through the readers the profile module applies to them (the one
// version parser of xgpu/common/drivers/version.hpp).
#include <string>

#include "fuzz_support.hpp"
#include "profile_file.hpp"
#include "xgpu/common/drivers/version.hpp"
#include "xgpu/common/errors.hpp"

namespace {

std::string text_field(const nlohmann::json& device, const char* name) {
  return device.contains(name) && device[name].is_string() ? device[name].get<std::string>() : "";
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = xgpu_fuzz::as_file(xgpu_fuzz::as_text(data, size));
  xgpu::profile::ProfileFile file;
  try {
    file = xgpu::profile::read_profile_file(path);
  } catch (const xgpu::common::Failure& failure) {
    const std::string why = xgpu::common::last_error_text();
    if (failure.status != XGPU_STATUS_INVALID_VALUE || why.rfind("profile " + path, 0) != 0)
      xgpu_fuzz::fail("a refusal that does not name the file: " + why);
    return 0;
  }
  if (!file.device.is_object()) xgpu_fuzz::fail("an accepted profile without a device object");
  namespace drivers = xgpu::drivers;
  const drivers::Version language = drivers::newest_opencl_c(
      drivers::opencl_c_version(text_field(file.device, "language_version")),
      drivers::opencl_version(text_field(file.device, "device_version")));
  (void)language.text();
  return 0;
}
