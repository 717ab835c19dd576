// Checking a setting (xgpu/settings.hpp): the registry (settings.def) says each variable's
// type and allowed words; the core's own parsers judge sizes and memory limits.
#include "settings.hpp"

#include <vector>

#include "memory/pool.hpp"
#include "physical.hpp"
#include "registry.hpp"
#include "util/byte_size.hpp"
#include "util/closest_word.hpp"
#include "xgpu/error.hpp"
#include "xgpu/settings.hpp"

namespace xgpu {
namespace {

std::string quoted(const common::SettingSpec& spec, std::string_view value) {
  return std::string(spec.name) + "='" + std::string(value) + "'";
}

std::optional<SettingProblem> word_problem(const common::SettingSpec& spec,
                                           std::string_view value) {
  if (common::is_allowed(spec, value)) return std::nullopt;
  const std::vector<std::string> words = common::split_field(spec.allowed);
  std::string list;
  for (const std::string& word : words) list += (list.empty() ? "" : ", ") + word;
  SettingProblem problem;
  problem.suggestion = util::closest_word(value, words);
  problem.message =
      quoted(spec, value) + " is not one of " + list + util::did_you_mean(value, words);
  return problem;
}

std::optional<SettingProblem> value_problem(const common::SettingSpec& spec,
                                            std::string_view value) {
  switch (spec.type) {
    case common::SettingType::word:
      return word_problem(spec, value);
    case common::SettingType::size:
      if (util::parse_byte_size(std::string(value))) return std::nullopt;
      return SettingProblem{false, quoted(spec, value) + " is not a size such as 512M or 2G", {}};
    case common::SettingType::memory_limit:
      try {
        // Any device size will do: only the form of the text is judged here.
        detail::parse_memory_limit(std::string(value), std::uint64_t{1} << 40, spec.name);
        return std::nullopt;
      } catch (const Error& error) {
        return SettingProblem{false, error.message(), {}};
      }
    case common::SettingType::module_list:
      try {
        // The names a selector accepts: the loaded modules and the known ones.
        detail::parse_backend_order(std::string(value),
                                    detail::Registry::instance().backend_names());
        return std::nullopt;
      } catch (const Error& error) {
        return SettingProblem{false, error.message(), {}};
      }
    default:
      return std::nullopt;
  }
}

}  // namespace

std::optional<SettingProblem> check_setting(std::string_view name, std::string_view value) {
  const common::SettingSpec* spec = common::find_setting(name);
  if (spec != nullptr) return value_problem(*spec, value);
  std::vector<std::string> names;
  for (const common::SettingSpec& known : common::all_settings()) names.push_back(known.name);
  SettingProblem problem;
  problem.unknown_name = true;
  problem.suggestion = util::closest_word(name, names);
  problem.message = "xgpu reads no variable " + std::string(name) + util::did_you_mean(name, names);
  return problem;
}

namespace detail {

std::string read_word(common::Setting setting, const char* call) {
  const std::string value = common::setting_text(setting);
  if (value.empty()) return value;
  if (auto problem = word_problem(common::spec(setting), value))
    throw Error(Errc::invalid_argument, problem->message, call);
  return value;
}

}  // namespace detail
}  // namespace xgpu
