// The registry of xgpu's settings: every XGPU_* environment variable, from settings.def, with
// its type, default, allowed values, one line of doc and its readers. Every part of xgpu (the
// core, the algorithms, the modules, the `xgpu` command) reads its variables through
// read_setting(), so a variable cannot be read without being listed, and `xgpu doctor`,
// docs/settings.md and the README's table know every one.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace xgpu::common {

/// One per line of settings.def.
enum class Setting {
#define XGPU_SETTING(id, name, type, default_value, allowed, doc, read_by) id,
#include "xgpu/common/settings.def"
#undef XGPU_SETTING
};

/// What a setting's value is; says how `xgpu doctor` checks it.
enum class SettingType {
  word,          ///< one of the allowed words
  selector,      ///< a device selector (docs/selectors.md)
  size,          ///< bytes: 512M, 2G
  memory_limit,  ///< a size or a fraction of the device's memory (0.8)
  path,          ///< a file or folder
  path_list,     ///< folders, ':'-separated
  profile_list,  ///< profile names or files, ':'-separated
  module_list,   ///< backend module names, ','-separated
  library,       ///< a shared library's file name or path
  internal,      ///< set by xgpu for a process it starts, not by a user
};

struct SettingSpec {
  Setting id;
  const char* name;
  SettingType type;
  const char* default_value;  ///< what applies while unset; a library's files, '|'-separated
  const char* allowed;        ///< a word's accepted values, '|'-separated; else ""
  const char* doc;
  const char* read_by;
};

/// Every setting, in the order of settings.def.
const std::vector<SettingSpec>& all_settings();
const SettingSpec& spec(Setting setting);
/// The setting of that exact name, or nullptr.
const SettingSpec* find_setting(std::string_view name);
/// "word", "selector", ...: the type as docs/settings.md names it.
const char* type_name(SettingType type);
/// A '|'-separated field (allowed, a library's default) as a list.
std::vector<std::string> split_field(const char* field);
/// Whether `value` is one of a word setting's allowed words (exactly; always true otherwise).
bool is_allowed(const SettingSpec& spec, std::string_view value);

/// The variable's value, or nullopt while it is unset; an empty value is returned as such.
/// Read from the environment the first time this library asks, then kept for the life of the
/// process: xgpu's behaviour does not change under a running program, and a test that wants
/// another value sets it in its CTest entry (setenv() while other threads read the
/// environment can crash them).
std::optional<std::string> read_setting(Setting setting);
/// The value, or "" when unset: for settings whose empty value means the same as unset.
std::string setting_text(Setting setting);
/// A list setting's items (':' or ',' as its type separates them), empty ones dropped.
std::vector<std::string> setting_items(Setting setting);

/// Sets the variable for this process: for the callers that choose a setting for the library
/// before it reads it (xgpu::add_profile, the `xgpu` command for its own library). This
/// library's next read_setting() sees the new value; another that has read it already does
/// not.
void write_setting(Setting setting, const std::string& value);

}  // namespace xgpu::common
