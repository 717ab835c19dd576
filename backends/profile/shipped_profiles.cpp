// Shipped profiles: <module dir>/../../share/xgpu/profiles (an install: lib/xgpu/ ->
// share/xgpu/profiles) and the source tree's profiles/ (a build tree).
#include "shipped_profiles.hpp"

#include <dlfcn.h>
#include <sys/stat.h>

namespace xgpu_profile {
namespace {

std::string module_folder() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&module_folder), &info) == 0 || !info.dli_fname) return ".";
  std::string path = info.dli_fname;
  auto slash = path.rfind('/');
  return slash == std::string::npos ? std::string(".") : path.substr(0, slash);
}

}  // namespace

std::vector<std::string> shipped_profile_dirs() {
  return {module_folder() + "/../../share/xgpu/profiles", XGPU_SOURCE_PROFILE_DIR};
}

std::optional<std::string> find_shipped_profile(const std::string& name) {
  for (const std::string& dir : shipped_profile_dirs()) {
    const std::string path = dir + "/" + name + ".json";
    struct stat status {};
    if (stat(path.c_str(), &status) == 0 && S_ISREG(status.st_mode)) return path;
  }
  return std::nullopt;
}

}  // namespace xgpu_profile
