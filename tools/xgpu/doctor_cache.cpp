// The kernel cache's health for `xgpu doctor`: where it is, who owns it and with what mode,
// whether it is writable, its size against the cap, and whether every entry reads back.
// Read only: bad entries are counted (as `xgpu cache verify` would find them), not deleted.
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <xgpu/byte_size.hpp>
#include <xgpu/cache.hpp>

#include "doctor.hpp"

namespace xgpu::cli::doctor {
namespace {

const std::string kSection = "Kernel cache";

std::string owner_name(uid_t uid) {
  if (const passwd* entry = getpwuid(uid)) return entry->pw_name;
  return "uid " + std::to_string(uid);
}

Finding folder_finding(const cache::Status& status) {
  Finding finding{kSection, "folder", Status::ok, {}, {}};
  if (status.mode == "off") {
    const bool chosen = status.note.find("XGPU_CACHE=") != std::string::npos;
    finding.status = chosen ? Status::not_applicable : Status::problem;
    finding.detail = (status.folder.empty() ? "" : status.folder + ": ") + status.note;
    if (!chosen) {
      finding.fix =
          "make the folder yours and private (chown $USER, chmod 700), or point "
          "XGPU_CACHE_DIR at one that is";
    }
    return finding;
  }
  struct stat info {};
  if (stat(status.folder.c_str(), &info) != 0) {
    finding.detail = status.folder + " (" + status.mode + ", not made yet)";
    return finding;
  }
  char mode[8];
  std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(info.st_mode & 07777));
  finding.detail = status.folder + ", owner " + owner_name(info.st_uid) + ", mode " + mode + ", " +
                   (status.note.empty() ? status.mode : status.note);
  if (status.mode == "read-only" && status.note.find("XGPU_CACHE=ro") == std::string::npos) {
    finding.status = Status::problem;
    finding.fix =
        "programs built now are not saved: make the folder writable (chmod u+w), or "
        "point XGPU_CACHE_DIR at a writable one";
  }
  return finding;
}

Finding size_finding(const cache::Status& status) {
  Finding finding{kSection,
                  "size",
                  Status::ok,
                  format_bytes(status.size) + " in " + std::to_string(status.entries) +
                      " entries, cap " + format_bytes(status.max_size) + " (XGPU_CACHE_MAX_SIZE)",
                  {}};
  if (status.size > status.max_size) {
    finding.status = Status::problem;
    finding.fix = "xgpu cache prune --max-size " + format_bytes(status.max_size);
  }
  return finding;
}

Finding entries_finding() {
  std::size_t bad = 0;
  std::string example;
  const std::vector<cache::Entry> entries = cache::list();
  for (const cache::Entry& entry : entries) {
    if (entry.valid) continue;
    if (bad++ == 0) example = entry.path + ": " + entry.problem;
  }
  if (bad == 0) {
    return {kSection,
            "entries",
            Status::ok,
            std::to_string(entries.size()) + " read back, none bad",
            {}};
  }
  return {kSection, "entries", Status::problem,
          std::to_string(bad) + " of " + std::to_string(entries.size()) + " bad, e.g. " + example,
          "xgpu cache verify (deletes them; programs rebuild them on next use)"};
}

}  // namespace

Findings check_cache() {
  const cache::Status status = cache::status();
  Findings findings{folder_finding(status)};
  if (status.mode == "off") return findings;
  findings.push_back(size_finding(status));
  findings.push_back(entries_finding());
  return findings;
}

}  // namespace xgpu::cli::doctor
