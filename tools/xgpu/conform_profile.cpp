// The profile module does the simulating; this only points it at a file and says clearly when
// it did not take it, instead of running the suite on the real devices.
#include "conform_profile.hpp"

#include <cstdlib>
#include <filesystem>
#include <xgpu/common/settings.hpp>
#include <xgpu/error.hpp>
#include <xgpu/profile.hpp>

namespace xgpu::cli {
namespace {

constexpr const char* kBackend = "profile";

bool looks_like_path(const std::string& text) {
  return text.find('/') != std::string::npos ||
         (text.size() > 5 && text.compare(text.size() - 5, 5, ".json") == 0);
}

std::string shipped_list() {
  std::string list;
  for (const std::string& name : xgpu::shipped_profile_names())
    list += (list.empty() ? "" : ", ") + name;
  return list.empty() ? "none found" : list;
}

}  // namespace

std::string resolve_profile(const std::string& profile) {
  if (looks_like_path(profile)) {
    std::error_code error;
    if (!std::filesystem::is_regular_file(profile, error))
      throw Error(Errc::invalid_argument, "no profile file " + profile, "--profile");
    return profile;
  }
  if (auto file = xgpu::find_shipped_profile(profile)) return *file;
  throw Error(Errc::invalid_argument,
              "unknown profile '" + profile + "' (shipped: " + shipped_list() +
                  "; or a file from `xgpu query --json -d N`, see docs/profiles.md)",
              "--profile");
}

void use_profile(const std::string& file) { common::write_setting(common::Setting::profile, file); }

std::vector<Device> profile_devices(const std::string& file) {
  std::vector<Device> found;
  for (const Device& device : devices())
    if (device.info().backend == kBackend) found.push_back(device);
  if (!found.empty()) return found;
  std::string why =
      "no profile module was found (libxgpu-backend-profile.so; `xgpu query "
      "--json` lists the modules)";
  for (const BackendReport& report : backends()) {
    // A module that could not be read is reported under its file name.
    if (report.name != kBackend && report.path.find("libxgpu-backend-profile") == std::string::npos)
      continue;
    why = report.loaded ? "the profile module offers no device" : "the profile module was refused";
    if (!report.message.empty()) why += ": " + report.message;
  }
  throw Error(Errc::no_device, "cannot simulate " + file + ": " + why, "xgpu conform --profile");
}

}  // namespace xgpu::cli
