// The search for shipped profiles: XGPU_PROFILE_DIR, the install's share/xgpu/profiles next to
// this binary, the build tree's copy. Folder names come from CMake
// (backends/profile/files/CMakeLists.txt).
#include "xgpu/common/shipped_profiles.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <system_error>

#include "xgpu/common/settings.hpp"

namespace fs = std::filesystem;

namespace xgpu::common {
namespace {

constexpr const char* kSuffix = ".json";

std::vector<std::string> split_colons(const std::string& text) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find(':', start);
    if (end == std::string::npos) end = text.size();
    if (end > start) parts.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return parts;
}

// The file this code was linked into: a module's or libxgpu's .so, or an executable (whose
// dladdr name is argv[0], which may be relative or a bare name found through PATH).
fs::path own_binary() {
  Dl_info info{};
  std::error_code error;
  if (dladdr(reinterpret_cast<void*>(&own_binary), &info) != 0 && info.dli_fname &&
      std::string(info.dli_fname).find('/') != std::string::npos) {
    fs::path path = fs::canonical(info.dli_fname, error);
    if (!error) return path;
  }
  fs::path self = fs::read_symlink("/proc/self/exe", error);
  return error ? fs::path() : self;
}

bool is_folder(const fs::path& path) {
  std::error_code error;
  return fs::is_directory(path, error);
}

bool is_inside(const fs::path& path, const fs::path& folder) {
  auto [end, unused] = std::mismatch(folder.begin(), folder.end(), path.begin(), path.end());
  (void)unused;
  return end == folder.end();
}

// A name, not a path: no separator, no "..", nothing a shell or a file system treats specially.
bool is_plain_name(const std::string& name) {
  if (name.empty() || name[0] == '.') return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '_' || c == '.';
  });
}

}  // namespace

std::vector<std::string> shipped_profile_dirs() {
  std::vector<std::string> dirs;
  auto add = [&dirs](const fs::path& folder) {
    const std::string text = folder.lexically_normal().string();
    if (std::find(dirs.begin(), dirs.end(), text) == dirs.end()) dirs.push_back(text);
  };
  for (const std::string& folder : xgpu::common::setting_items(xgpu::common::Setting::profile_dir))
    add(folder);
  const std::size_t from_env = dirs.size();
  const fs::path binary = own_binary();
  fs::path expected;
  if (!binary.empty()) {
    // Relative to lib/ for libxgpu and to lib/xgpu/ for the profile module, as installed (the
    // build tree is laid out the same way).
    for (const std::string& relative : split_colons(XGPU_PROFILE_RELATIVE_DIRS)) {
      const fs::path folder = binary.parent_path() / relative;
      if (expected.empty()) expected = folder;
      if (is_folder(folder)) add(folder);
    }
    // A test program elsewhere in the build tree still finds the build tree's copy.
    const fs::path build_dir = XGPU_PROFILE_BUILD_DIR;
    if (is_inside(binary, fs::path(XGPU_PROFILE_BUILD_ROOT)) && is_folder(build_dir))
      add(build_dir);
  }
  if (dirs.size() == from_env && !expected.empty()) add(expected);
  return dirs;
}

std::optional<std::string> find_shipped_profile(const std::string& name) {
  if (!is_plain_name(name)) return std::nullopt;
  for (const std::string& folder : shipped_profile_dirs()) {
    const fs::path file = fs::path(folder) / (name + kSuffix);
    std::error_code error;
    if (fs::is_regular_file(file, error)) return file.string();
  }
  return std::nullopt;
}

std::vector<std::string> shipped_profile_names() {
  std::set<std::string> names;
  for (const std::string& folder : shipped_profile_dirs()) {
    std::error_code error;
    for (fs::directory_iterator it(folder, error), end; !error && it != end; it.increment(error)) {
      const fs::path& file = it->path();
      std::error_code type_error;
      if (file.extension() != kSuffix || !fs::is_regular_file(file, type_error)) continue;
      const std::string name = file.stem().string();
      if (is_plain_name(name)) names.insert(name);
    }
  }
  return {names.begin(), names.end()};
}

}  // namespace xgpu::common
