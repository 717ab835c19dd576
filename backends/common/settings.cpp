// The settings registry (see xgpu/common/settings.hpp), generated from xgpu/common/settings.def.
#include "xgpu/common/settings.hpp"

#include <cstdlib>
#include <mutex>

namespace xgpu::common {
namespace {

// What each setting read as, once read: one copy per library that links this (the core,
// each module, the command), all of them reading the same environment.
struct ReadValues {
  std::mutex mutex;
  std::vector<std::optional<std::optional<std::string>>> values{all_settings().size()};
};

ReadValues& read_values() {
  static ReadValues* values = new ReadValues();  // never destroyed: read during exit too
  return *values;
}

std::size_t index_of(Setting setting) { return static_cast<std::size_t>(setting); }

}  // namespace

const std::vector<SettingSpec>& all_settings() {
  static const std::vector<SettingSpec> table = {
#define XGPU_SETTING(id, name, type, default_value, allowed, doc, read_by) \
  {Setting::id, name, SettingType::type, default_value, allowed, doc, read_by},
#include "xgpu/common/settings.def"
#undef XGPU_SETTING
  };
  return table;
}

const SettingSpec& spec(Setting setting) { return all_settings()[index_of(setting)]; }

const SettingSpec* find_setting(std::string_view name) {
  for (const SettingSpec& candidate : all_settings()) {
    if (name == candidate.name) return &candidate;
  }
  return nullptr;
}

const char* type_name(SettingType type) {
  switch (type) {
    case SettingType::word:
      return "word";
    case SettingType::selector:
      return "selector";
    case SettingType::size:
      return "size";
    case SettingType::memory_limit:
      return "size or fraction";
    case SettingType::path:
      return "path";
    case SettingType::path_list:
      return "folders";
    case SettingType::profile_list:
      return "profiles";
    case SettingType::module_list:
      return "module names";
    case SettingType::library:
      return "library";
    case SettingType::internal:
      return "internal";
  }
  return "?";
}

std::vector<std::string> split_field(const char* field) {
  std::vector<std::string> items;
  std::string_view rest(field);
  while (!rest.empty()) {
    const std::size_t bar = rest.find('|');
    items.emplace_back(rest.substr(0, bar));
    if (bar == std::string_view::npos) break;
    rest.remove_prefix(bar + 1);
  }
  return items;
}

bool is_allowed(const SettingSpec& spec, std::string_view value) {
  if (spec.type != SettingType::word) return true;
  for (const std::string& word : split_field(spec.allowed)) {
    if (word == value) return true;
  }
  return false;
}

std::optional<std::string> read_setting(Setting setting) {
  ReadValues& read = read_values();
  std::lock_guard<std::mutex> lock(read.mutex);
  auto& slot = read.values[index_of(setting)];
  if (!slot) {
    const char* value = std::getenv(spec(setting).name);
    slot = value != nullptr ? std::optional<std::string>(value) : std::nullopt;
  }
  return *slot;
}

std::string setting_text(Setting setting) { return read_setting(setting).value_or(""); }

std::vector<std::string> setting_items(Setting setting) {
  const char separator = spec(setting).type == SettingType::module_list ? ',' : ':';
  const std::string text = setting_text(setting);
  std::vector<std::string> items;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find(separator, start);
    if (end == std::string::npos) end = text.size();
    if (end > start) items.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return items;
}

void write_setting(Setting setting, const std::string& value) {
  ReadValues& read = read_values();
  std::lock_guard<std::mutex> lock(read.mutex);
  ::setenv(spec(setting).name, value.c_str(), 1);
  read.values[index_of(setting)] = std::optional<std::string>(value);
}

}  // namespace xgpu::common
