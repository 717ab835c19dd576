// Building the cache key text; see key.hpp.
#include "cache/key.hpp"

#include <cstdlib>
#include <sstream>

#include "cache/entry.hpp"
#include "registry.hpp"

namespace xgpu::detail {
namespace {

// Variables through which drivers add build options behind the program's back; a change
// must miss, or a binary built with other options would be loaded.
constexpr const char* kOptionVariables[] = {
    "AMD_OCL_BUILD_OPTIONS",  "AMD_OCL_BUILD_OPTIONS_APPEND", "POCL_EXTRA_BUILD_FLAGS",
    "POCL_WORK_GROUP_METHOD", "POCL_VECTORIZER_REMARKS",      "CUDA_CACHE_DISABLE",
    "NEO_CACHE_PERSISTENT",   "IGC_ShaderDumpEnable",         "CL_CONFIG_CPU_TARGET_ARCH"};

}  // namespace

const std::string& driver_option_variables() {
  static const std::string lines = [] {
    std::string text;
    for (const char* name : kOptionVariables) {
      if (const char* value = std::getenv(name))
        text += std::string("env ") + name + "=" + value + "\n";
    }
    return text;
  }();
  return lines;
}

std::string normalize_options(const std::string& options) {
  std::istringstream in(options);
  std::string word, out;
  while (in >> word) out += (out.empty() ? "" : " ") + word;
  return out;
}

std::string make_cache_key(const DeviceRecord& device, const std::string& options,
                           const std::string& expanded_source,
                           const std::string& driver_variables) {
  const DeviceInfo& info = device.info;
  std::string key = "xgpu kernel cache format " + std::to_string(kCacheFormatVersion) + "\n";
  key += "backend: " + info.backend + " abi " + std::to_string(XGPU_BACKEND_ABI_VERSION) + "\n";
  key += "platform: " + info.platform_name + " | " + info.platform_version + "\n";
  key += "device: " + info.name + " | " + info.device_version + "\n";
  key += "driver: " + info.driver_version + "\n";
  key += "uuid: " + info.uuid + "\n";
  key += "options: " + normalize_options(options) + "\n";
  key += driver_variables;
  key += "source:\n" + expanded_source;
  return key;
}

}  // namespace xgpu::detail
