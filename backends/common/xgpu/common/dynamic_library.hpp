// Opening a shared library at run time: the one loader of xgpu. Backend modules use it for
// their vendor libraries, the core for backend modules, the algorithms and the `xgpu`
// command for the BLAS libraries they compare with, so every caller tries the same names in
// the same order and reports the same way which path served, or why none did.
#pragma once

#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "xgpu/common/settings.hpp"

namespace xgpu::common {

/// Which library to open: a description for messages ("CLBlast"), a setting that, when set
/// and non-empty, replaces the candidates with its value, and the file names to try in order.
struct LibrarySpec {
  const char* what;
  std::optional<Setting> override_setting;
  std::vector<std::string> candidates;
  /// RTLD_GLOBAL instead of RTLD_LOCAL: its symbols join the process's global scope, as those
  /// of a library linked at build time do (the OpenCL ICD loader, which tools preloaded to
  /// intercept OpenCL calls expect to find there).
  bool global = false;
};

/// A library setting's spec: its value overrides, its default (settings.def) lists the files.
LibrarySpec library_spec(const char* what, Setting setting);

/// An opened library; stays loaded until close() or forever (libraries that hand out
/// function pointers must outlive every caller, so the destructor does not close).
class DynamicLibrary {
 public:
  DynamicLibrary() = default;
  /// Tries each candidate (or the override) in turn, and keeps the first that opens and
  /// exports every name in `required` (may be empty). Never throws: check loaded().
  static DynamicLibrary open(const LibrarySpec& spec,
                             std::initializer_list<const char*> required = {});
  /// The same with the override setting's value given instead of read (the tests' way in):
  /// a non-empty `override_value` replaces the candidates.
  static DynamicLibrary open(const LibrarySpec& spec, std::initializer_list<const char*> required,
                             const std::string& override_value);
  /// Opens exactly `path` (RTLD_NOW | RTLD_LOCAL, or RTLD_GLOBAL when `global`); why_not()
  /// holds dlerror()'s text.
  static DynamicLibrary open_path(const std::string& path, bool global = false);

  bool loaded() const { return handle_ != nullptr; }
  /// The file that served (as passed to dlopen).
  const std::string& path() const { return path_; }
  /// Every candidate tried and why each failed; empty when loaded().
  const std::string& why_not() const { return why_not_; }
  /// What each candidate's dlopen() said ("libcuda.so.1: cannot open shared object file: ..."),
  /// without why_not()'s framing; for a module that words its own message.
  const std::string& attempts() const { return attempts_; }
  /// True when the override variable chose the library.
  bool overridden() const { return overridden_; }

  /// The symbol's address, or nullptr when absent (or not loaded).
  void* symbol(const char* name) const;
  template <class Function>
  Function function(const char* name) const {
    return reinterpret_cast<Function>(symbol(name));
  }
  /// dlclose()s the library; every pointer taken from it is invalid afterwards.
  void close();

 private:
  void* handle_ = nullptr;
  std::string path_;
  std::string why_not_;
  std::string attempts_;
  bool overridden_ = false;
};

}  // namespace xgpu::common
