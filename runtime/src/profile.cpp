// xgpu::add_profile: the environment the profile module reads, set from a program (through the
// settings registry, before the registry of devices is made: setenv() is safe only while no
// other thread reads the environment); and where the shipped profiles are, the profile module's
// own search (backends/common). The core knows nothing else of profiles: the module reads these
// variables at its init().
#include "xgpu/profile.hpp"

#include <fstream>
#include <mutex>

#include "registry.hpp"
#include "xgpu/common/settings.hpp"
#include "xgpu/common/shipped_profiles.hpp"
#include "xgpu/error.hpp"

namespace xgpu {
namespace {

constexpr const char* kCall = "xgpu::add_profile";

[[noreturn]] void refuse(const std::string& why) {
  throw Error(Errc::invalid_argument, why, kCall);
}

bool names_a_file(const std::string& profile) {
  return profile.find('/') != std::string::npos ||
         (profile.size() >= 5 && profile.compare(profile.size() - 5, 5, ".json") == 0);
}

}  // namespace

void add_profile(const std::string& profile, const std::string& backing_selector) {
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  if (detail::Registry::started())
    refuse("add_profile(\"" + profile +
           "\") after the devices were enumerated: the profile module has read XGPU_PROFILE "
           "already; call it before the first xgpu::devices(), select() or Context");
  if (profile.empty()) refuse("add_profile: the profile is empty");
  if (profile.find(':') != std::string::npos)
    refuse("add_profile(\"" + profile + "\"): ':' separates profiles in XGPU_PROFILE");
  if (names_a_file(profile) && !std::ifstream(profile))
    refuse("add_profile(\"" + profile + "\"): the file cannot be read");
  using common::Setting;
  const std::string backing = common::setting_text(Setting::profile_backing);
  if (!backing_selector.empty()) {
    if (!backing.empty() && backing_selector != backing)
      refuse("add_profile(\"" + profile + "\", \"" + backing_selector +
             "\"): every profile has the one backing device XGPU_PROFILE_BACKING=" + backing);
    common::write_setting(Setting::profile_backing, backing_selector);
  }
  const std::string list = common::setting_text(Setting::profile);
  common::write_setting(Setting::profile, list.empty() ? profile : list + ":" + profile);
}

std::vector<std::string> shipped_profile_dirs() { return common::shipped_profile_dirs(); }

std::optional<std::string> find_shipped_profile(const std::string& name) {
  return common::find_shipped_profile(name);
}

std::vector<std::string> shipped_profile_names() { return common::shipped_profile_names(); }

}  // namespace xgpu
