// The conformance side of the table of known drivers; see known_deviations.hpp.
#include "known_deviations.hpp"

#include <regex>

#include "profile_backing.hpp"
#include "xgpu/common/drivers/known_drivers.hpp"

namespace xgpu::conform {
namespace {

// The facts of one kind for `check` on the driver that computes for the Env.
std::vector<const drivers::DriverFact*> facts_of(const Env& env, const std::string& check,
                                                 drivers::Affects affects) {
  std::vector<const drivers::DriverFact*> found;
  for (const drivers::DriverFact* fact : drivers::facts_for(
           computing_implementation(env.info()), computing_driver_version(env.info()), affects)) {
    if (drivers::concerns(*fact, check)) found.push_back(fact);
  }
  return found;
}

}  // namespace

std::string known_deviation(const Env& env, const std::string& check, const std::string& detail) {
  for (const drivers::DriverFact* fact : facts_of(env, check, drivers::Affects::wrong_result)) {
    const std::string pattern = fact->failure;
    if (!pattern.empty() && !std::regex_search(detail, std::regex(pattern))) continue;
    const bool backing = computing_implementation(env.info()) != env.info().implementation;
    return std::string("known deviation of ") + fact->implementation +
           (backing ? " (the profile's backing device)" : "") + ": " + fact->why +
           (detail.empty() ? "" : " (" + detail + ")");
  }
  return {};
}

bool avoids(const Env& env, const std::string& check, const char* input) {
  for (const drivers::DriverFact* fact : facts_of(env, check, drivers::Affects::avoided)) {
    if (std::string(fact->input) == input) return true;
  }
  return false;
}

bool Deviations::known(const Result& result) {
  const std::string reason = known_deviation(env_, env_.check(), result.detail);
  if (reason.empty()) return false;
  if (seen_.empty()) seen_ = reason;
  return true;
}

}  // namespace xgpu::conform
