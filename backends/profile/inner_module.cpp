// Loading the opencl module under the profiles.
//
// dlopen() of the path the core also loaded gives the same library, so both share one
// opencl registry: its init() enumerates once and handles are common. But each init() call
// replaces that module's log host, so init() is called only when the module has no device
// yet (this module loaded first); otherwise the core's host is kept and opencl's log lines
// stay under its own logger.
#include "inner_module.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>
#include <vector>

#include "xgpu/common/dynamic_library.hpp"
#include "xgpu/common/errors.hpp"
#include "xgpu/common/log.hpp"

namespace xgpu::profile {
namespace {

constexpr const char* kInnerFile = "libxgpu-backend-opencl.so";

const xgpu_backend_v1* g_inner = nullptr;
std::mutex g_inner_mutex;

std::string own_folder() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&own_folder), &info) == 0 || !info.dli_fname) return ".";
  std::string path = info.dli_fname;
  auto slash = path.rfind('/');
  return slash == std::string::npos ? std::string(".") : path.substr(0, slash);
}

std::vector<std::string> candidate_paths() {
  std::vector<std::string> paths;
  for (const std::string& folder : common::setting_items(common::Setting::backend_path))
    paths.push_back(folder + "/" + kInnerFile);
  paths.push_back(own_folder() + "/" + kInnerFile);
  return paths;
}

const xgpu_backend_v1* open_table(const std::string& path, std::string& why) {
  common::DynamicLibrary library = common::DynamicLibrary::open_path(path);
  if (!library.loaded()) {
    why += "\n  " + path + ": " + library.why_not();
    return nullptr;
  }
  auto entry = library.function<xgpu_backend_entry_fn>(XGPU_BACKEND_ENTRY_SYMBOL);
  const xgpu_backend_v1* table = entry ? entry(XGPU_BACKEND_ABI_VERSION) : nullptr;
  if (!table || table->abi_version != XGPU_BACKEND_ABI_VERSION ||
      table->struct_size < sizeof(xgpu_backend_v1)) {
    // This module forwards every member, so it needs a table as new as its own.
    why += "\n  " + path + ": not an opencl module of this xgpu's ABI and table size";
    return nullptr;
  }
  return table;  // stays loaded for the life of the process, like every module
}

}  // namespace

void load_inner(const xgpu_host_v1* host) {
  std::lock_guard<std::mutex> lock(g_inner_mutex);
  if (g_inner) return;
  std::string why;
  const xgpu_backend_v1* table = nullptr;
  for (const std::string& path : candidate_paths()) {
    table = open_table(path, why);
    if (table) {
      XGPU_LOG_DEBUGF("profile: decorating the opencl module %s", path.c_str());
      break;
    }
  }
  if (!table) common::fail(XGPU_STATUS_UNSUPPORTED, "no opencl module to back profiles:" + why);
  std::uint32_t count = 0;
  if (table->device_count(&count) != XGPU_STATUS_SUCCESS || count == 0) {
    const xgpu_status status = table->init(host);
    if (status != XGPU_STATUS_SUCCESS) {
      std::string text;
      char buffer[1024] = {};
      std::size_t size = 0;
      if (table->last_error(buffer, sizeof buffer, &size) == XGPU_STATUS_SUCCESS) text = buffer;
      common::fail(status, "the opencl module under the profiles offers no device: " + text);
    }
  }
  g_inner = table;
}

const xgpu_backend_v1& inner() { return *g_inner; }

std::string inner_error() {
  std::size_t size = 0;
  if (g_inner->last_error(nullptr, 0, &size) != XGPU_STATUS_SUCCESS || size == 0) return {};
  std::string text(size, '\0');
  if (g_inner->last_error(text.data(), size, &size) != XGPU_STATUS_SUCCESS) return {};
  text.resize(size - 1);
  return text;
}

xgpu_status pass(xgpu_status status) {
  if (status != XGPU_STATUS_SUCCESS) common::set_last_error(inner_error().c_str());
  return status;
}

}  // namespace xgpu::profile
