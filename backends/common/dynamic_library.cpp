// The one run-time library loader (see xgpu/common/dynamic_library.hpp).
#include "xgpu/common/dynamic_library.hpp"

#include <dlfcn.h>

namespace xgpu::common {

LibrarySpec library_spec(const char* what, Setting setting) {
  return {what, setting, split_field(spec(setting).default_value)};
}

DynamicLibrary DynamicLibrary::open_path(const std::string& path, bool global) {
  DynamicLibrary library;
  library.path_ = path;
  // RTLD_LOCAL keeps one library's symbols from resolving another's (two vendors' modules,
  // two BLAS builds).
  library.handle_ = dlopen(path.c_str(), RTLD_NOW | (global ? RTLD_GLOBAL : RTLD_LOCAL));
  if (library.handle_ == nullptr) {
    const char* error = dlerror();
    library.why_not_ = error != nullptr ? error : path + ": cannot be opened";
  }
  return library;
}

DynamicLibrary DynamicLibrary::open(const LibrarySpec& spec,
                                    std::initializer_list<const char*> required) {
  return open(spec, required,
              spec.override_setting ? setting_text(*spec.override_setting) : std::string());
}

DynamicLibrary DynamicLibrary::open(const LibrarySpec& spec,
                                    std::initializer_list<const char*> required,
                                    const std::string& override_value) {
  std::vector<std::string> candidates = spec.candidates;
  bool overridden = false;
  if (spec.override_setting && !override_value.empty()) {
    candidates = {override_value};
    overridden = true;
  }
  std::string tried;
  for (const std::string& candidate : candidates) {
    if (!tried.empty()) tried += "; ";
    DynamicLibrary library = open_path(candidate, spec.global);
    if (!library.loaded()) {
      tried += library.why_not_;
      continue;
    }
    std::string missing;
    for (const char* name : required) {
      if (library.symbol(name) == nullptr)
        missing += std::string(missing.empty() ? "" : ", ") + name;
    }
    if (!missing.empty()) {
      tried += candidate + " lacks " + missing;
      library.close();
      continue;
    }
    library.overridden_ = overridden;
    return library;
  }
  DynamicLibrary none;
  none.overridden_ = overridden;
  none.attempts_ = tried;
  none.why_not_ = std::string(spec.what) + " could not be opened (" +
                  (candidates.empty() ? std::string("no candidate") : tried) + ")";
  if (overridden)
    none.why_not_ += std::string(", as ") + common::spec(*spec.override_setting).name + " asks";
  return none;
}

void* DynamicLibrary::symbol(const char* name) const {
  return handle_ != nullptr ? dlsym(handle_, name) : nullptr;
}

void DynamicLibrary::close() {
  if (handle_ != nullptr) dlclose(handle_);
  handle_ = nullptr;
}

}  // namespace xgpu::common
