// The rows of known_drivers.def and the questions asked of them; see known_drivers.hpp.
#include "xgpu/common/drivers/known_drivers.hpp"

#include <algorithm>
#include <set>

#include "xgpu/common/drivers/version.hpp"

namespace xgpu::drivers {

const char* workaround_name(Workaround workaround) {
  switch (workaround) {
    case Workaround::serialize_all_calls:
      return "serialize_all_calls";
    case Workaround::retain_queue_for_events:
      return "retain_queue_for_events";
    case Workaround::serialize_compiles:
      return "serialize_compiles";
    case Workaround::finish_queues_before_binary:
      return "finish_queues_before_binary";
    case Workaround::choose_local_size:
      return "choose_local_size";
    case Workaround::none:
    case Workaround::count:
      break;
  }
  return "none";
}

const std::vector<DriverFact>& known_driver_facts() {
  static const std::vector<DriverFact> facts = {
#define XGPU_WORKAROUND(implementation, first, last, id, why) \
  {implementation, first, last, Affects::workaround, Workaround::id, "", "", "", why},
#define XGPU_WRONG_RESULT(implementation, first, last, checks, failure, why) \
  {implementation, first, last, Affects::wrong_result, Workaround::none, checks, failure, "", why},
#define XGPU_MISSING_FEATURE(implementation, first, last, checks, why) \
  {implementation, first, last, Affects::missing_feature, Workaround::none, checks, "", "", why},
#define XGPU_AVOIDED(implementation, first, last, checks, input, why) \
  {implementation, first, last, Affects::avoided, Workaround::none, checks, "", input, why},
#include "xgpu/common/drivers/known_drivers.def"
#undef XGPU_WORKAROUND
#undef XGPU_WRONG_RESULT
#undef XGPU_MISSING_FEATURE
#undef XGPU_AVOIDED
  };
  return facts;
}

bool applies(const DriverFact& fact, std::string_view implementation,
             std::string_view driver_version) {
  if (implementation != fact.implementation) return false;
  const bool open_first = fact.first_version[0] == '\0';
  const bool open_last = fact.last_version[0] == '\0';
  if (open_first && open_last) return true;
  const Version version = drivers::driver_version(driver_version);
  if (version.empty()) return false;
  if (!open_first && version < parse_version(fact.first_version)) return false;
  return open_last || version <= parse_version(fact.last_version);
}

std::vector<std::string> checks_of(const DriverFact& fact) {
  std::vector<std::string> checks;
  const std::string_view list = fact.checks;
  for (std::size_t at = 0; at < list.size();) {
    std::size_t end = list.find(' ', at);
    if (end == std::string_view::npos) end = list.size();
    if (end > at) checks.emplace_back(list.substr(at, end - at));
    at = end + 1;
  }
  return checks;
}

bool concerns(const DriverFact& fact, std::string_view check) {
  const std::vector<std::string> checks = checks_of(fact);
  return std::find(checks.begin(), checks.end(), check) != checks.end();
}

std::vector<const DriverFact*> facts_for(std::string_view implementation,
                                         std::string_view driver_version, Affects affects) {
  std::vector<const DriverFact*> found;
  for (const DriverFact& fact : known_driver_facts()) {
    if (fact.affects == affects && applies(fact, implementation, driver_version))
      found.push_back(&fact);
  }
  return found;
}

std::vector<std::string> allowed_skips(std::string_view implementation,
                                       std::string_view driver_version) {
  std::set<std::string> checks;
  for (Affects affects : {Affects::wrong_result, Affects::missing_feature}) {
    for (const DriverFact* fact : facts_for(implementation, driver_version, affects))
      for (const std::string& check : checks_of(*fact)) checks.insert(check);
  }
  return {checks.begin(), checks.end()};
}

std::vector<std::string> known_implementations() {
  std::set<std::string> names;
  for (const DriverFact& fact : known_driver_facts()) names.insert(fact.implementation);
  return {names.begin(), names.end()};
}

}  // namespace xgpu::drivers
