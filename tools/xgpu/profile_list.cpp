// Reads each shipped profile just enough to name it; the profile module does the full check
// when one is used.
#include "profile_list.hpp"

#include <fstream>
#include <string>
#include <vector>
#include <xgpu/profile.hpp>
#include <xgpu/version.hpp>

#include "device_json.hpp"
#include "exit_codes.hpp"
#include "table.hpp"

namespace xgpu::cli {
namespace {

struct ProfileEntry {
  std::string name, file, device, vendor, source, error;
};

std::string text_field(const Json& object, const char* key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

ProfileEntry read_entry(const std::string& name) {
  ProfileEntry entry;
  entry.name = name;
  entry.file = xgpu::find_shipped_profile(name).value_or("");
  std::ifstream in(entry.file);
  if (!in) {
    entry.error = "cannot open " + entry.file;
    return entry;
  }
  Json profile = Json::parse(in, nullptr, false);
  if (profile.is_discarded() || !profile.is_object()) {
    entry.error = entry.file + " is not a JSON object";
    return entry;
  }
  // AMD's drivers name a device by its gfx target: the board name says more.
  const auto extras = profile.find("vendor_extras");
  if (extras != profile.end() && extras->is_object())
    entry.device = text_field(*extras, "board_name");
  if (entry.device.empty()) entry.device = text_field(profile, "name");
  entry.vendor = text_field(profile, "hardware_vendor");
  entry.source = text_field(profile, "source");
  if (entry.device.empty()) entry.error = "no \"name\" field";
  return entry;
}

Json entries_json(const std::vector<ProfileEntry>& entries) {
  Json document = {{"schema_version", kQuerySchemaVersion},
                   {"xgpu_version", version()},
                   {"profile_dirs", xgpu::shipped_profile_dirs()},
                   {"profiles", Json::array()}};
  for (const ProfileEntry& e : entries) {
    document["profiles"].push_back({{"name", e.name},
                                    {"device", e.device},
                                    {"hardware_vendor", e.vendor},
                                    {"file", e.file},
                                    {"source", e.source},
                                    {"error", e.error}});
  }
  return document;
}

void print_entries(std::ostream& out, const std::vector<ProfileEntry>& entries,
                   const Style& style) {
  if (entries.empty()) {
    out << "no shipped profile found; searched:";
    for (const std::string& folder : xgpu::shipped_profile_dirs()) out << ' ' << folder;
    out << " (add folders with XGPU_PROFILE_DIR)\n";
    return;
  }
  Table table;
  for (const char* header : {"PROFILE", "DEVICE", "VENDOR", "FILE"}) table.add_column(header);
  for (const ProfileEntry& e : entries) {
    if (e.error.empty()) {
      table.add_row({e.name, e.device, e.vendor, e.file});
    } else {
      table.add_row({e.name, Cell("unreadable: " + e.error, "31"), "", e.file});
    }
  }
  table.print(out, style);
  out << '\n' << style.bold("Sources") << '\n';
  for (const ProfileEntry& e : entries) {
    out << "  " << e.name << ": " << (e.source.empty() ? "(none given)" : e.source) << '\n';
  }
  out << "\nUse one with XGPU_PROFILE=NAME (e.g. XGPU_PROFILE=" << entries.front().name
      << " xgpu query) or xgpu conform --profile NAME; docs/profiles.md.\n";
}

}  // namespace

int print_profiles(std::ostream& out, bool json, const Style& style) {
  std::vector<ProfileEntry> entries;
  for (const std::string& name : xgpu::shipped_profile_names()) entries.push_back(read_entry(name));
  if (json) {
    out << dump_json(entries_json(entries)) << '\n';
  } else {
    print_entries(out, entries, style);
  }
  for (const ProfileEntry& e : entries)
    if (!e.error.empty()) return kExitFailure;
  return kExitOk;
}

}  // namespace xgpu::cli
