// Reading a system under a root folder for `xgpu doctor`'s vendor checks.
#include "doctor_system.hpp"

#include <dirent.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace xgpu::cli::doctor {

Identity Identity::current() {
  Identity who;
  who.uid = getuid();
  if (const passwd* entry = getpwuid(who.uid)) who.user = entry->pw_name;
  const int count = getgroups(0, nullptr);
  if (count > 0) {
    who.groups.resize(static_cast<std::size_t>(count));
    const int got = getgroups(count, who.groups.data());
    who.groups.resize(got > 0 ? static_cast<std::size_t>(got) : 0);
  }
  who.groups.push_back(getegid());  // getgroups() need not include it
  return who;
}

std::string under(const std::string& root, const std::string& path) {
  if (root.empty() || root == "/") return path;
  return (root.back() == '/' ? root.substr(0, root.size() - 1) : root) + path;
}

std::optional<std::string> first_line(const std::string& file) {
  // Regular files only, and at most 4 KiB of the line: a FIFO named *.icd would block the
  // read forever, and a huge one-line file says nothing more in its first 4 KiB.
  struct stat status {};
  if (::stat(file.c_str(), &status) != 0 || !S_ISREG(status.st_mode)) return std::nullopt;
  std::ifstream in(file);
  char text[4097] = {};
  if (!in) return std::nullopt;
  in.getline(text, sizeof text);
  if (in.gcount() == 0) return std::nullopt;
  std::string line(text);
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
  return line;
}

std::vector<std::string> names_in(const std::string& folder, const std::string& prefix) {
  std::vector<std::string> names;
  DIR* dir = opendir(folder.c_str());
  if (dir == nullptr) return names;
  while (const dirent* entry = readdir(dir)) {
    const std::string name = entry->d_name;
    if (name != "." && name != ".." && name.rfind(prefix, 0) == 0) names.push_back(name);
  }
  closedir(dir);
  std::sort(names.begin(), names.end());
  return names;
}

namespace {

unsigned hex_value(const std::optional<std::string>& text) {
  if (!text) return 0;
  return static_cast<unsigned>(std::strtoul(text->c_str(), nullptr, 16));
}

std::string link_target_name(const std::string& link) {
  char target[4096];
  const ssize_t length = readlink(link.c_str(), target, sizeof target - 1);
  if (length <= 0) return {};
  std::string text(target, static_cast<std::size_t>(length));
  const auto slash = text.rfind('/');
  return slash == std::string::npos ? text : text.substr(slash + 1);
}

}  // namespace

std::vector<PciDevice> pci_display_devices(const std::string& root, unsigned vendor) {
  std::vector<PciDevice> found;
  const std::string folder = under(root, "/sys/bus/pci/devices");
  for (const std::string& address : names_in(folder)) {
    const std::string device = folder + "/" + address;
    const unsigned class_code = hex_value(first_line(device + "/class"));
    const unsigned base_class = class_code >> 16;
    if (hex_value(first_line(device + "/vendor")) != vendor) continue;
    if (base_class != 0x03 && base_class != 0x12) continue;
    found.push_back(PciDevice{address, vendor, link_target_name(device + "/driver")});
  }
  return found;
}

bool kernel_module_loaded(const std::string& root, const std::string& name) {
  std::ifstream modules(under(root, "/proc/modules"));
  std::string line;
  while (std::getline(modules, line)) {
    if (line.rfind(name + " ", 0) == 0) return true;
  }
  struct stat info {};
  return stat(under(root, "/sys/module/" + name).c_str(), &info) == 0 && S_ISDIR(info.st_mode);
}

namespace {

// The fields of <root>/etc/group's line for `gid`: name and members.
std::optional<std::pair<std::string, std::vector<std::string>>> group_entry(const std::string& root,
                                                                            gid_t gid) {
  std::ifstream groups(under(root, "/etc/group"));
  std::string line;
  while (std::getline(groups, line)) {
    std::vector<std::string> fields;
    std::stringstream split(line);
    std::string field;
    while (std::getline(split, field, ':')) fields.push_back(field);
    if (fields.size() < 3 || std::strtoul(fields[2].c_str(), nullptr, 10) != gid) continue;
    std::vector<std::string> members;
    if (fields.size() > 3) {
      std::stringstream names(fields[3]);
      while (std::getline(names, field, ',')) members.push_back(field);
    }
    return std::make_pair(fields[0], members);
  }
  return std::nullopt;
}

bool in_groups(const Identity& who, gid_t gid) {
  return std::find(who.groups.begin(), who.groups.end(), gid) != who.groups.end();
}

std::string octal_mode(mode_t mode) {
  char text[8];
  std::snprintf(text, sizeof text, "%04o", static_cast<unsigned>(mode & 07777));
  return text;
}

}  // namespace

std::string group_name(const std::string& root, gid_t gid) {
  if (auto entry = group_entry(root, gid)) return entry->first;
  return "gid " + std::to_string(gid);
}

bool group_file_lists(const std::string& root, gid_t gid, const std::string& user) {
  auto entry = group_entry(root, gid);
  if (!entry || user.empty()) return false;
  return std::find(entry->second.begin(), entry->second.end(), user) != entry->second.end();
}

Finding node_finding(const std::string& root, const std::string& section, const std::string& node,
                     const Identity& who) {
  Finding finding{section, node, Status::ok, {}, {}};
  struct stat info {};
  if (stat(under(root, node).c_str(), &info) != 0) {
    finding.status = Status::problem;
    finding.detail = "missing";
    return finding;
  }
  const std::string group = group_name(root, info.st_gid);
  finding.detail = "group " + group + ", mode " + octal_mode(info.st_mode);
  const bool rw_other = (info.st_mode & 0006) == 0006;
  const bool rw_group = (info.st_mode & 0060) == 0060 && in_groups(who, info.st_gid);
  const bool rw_owner = (info.st_mode & 0600) == 0600 && info.st_uid == who.uid;
  if (who.uid == 0 || rw_other || rw_group || rw_owner) {
    finding.detail += who.uid == 0 ? ": root may open it" : ": you may open it";
    return finding;
  }
  finding.status = Status::problem;
  const std::string user = who.user.empty() ? "you" : who.user;
  finding.detail += ", and " + user + " is not in group " + group;
  if (group_file_lists(root, info.st_gid, who.user)) {
    finding.fix = "/etc/group lists " + user + " in " + group +
                  ", but this session started before: log out and in again (or run: newgrp " +
                  group + ")";
  } else {
    finding.fix = "add yourself to group " + group + ": sudo usermod -aG " + group +
                  " $USER, then log in again";
  }
  return finding;
}

std::optional<std::string> find_library(const std::string& root,
                                        const std::vector<std::string>& names,
                                        const std::vector<std::string>& extra_folders) {
  std::vector<std::string> folders;
  if (root.empty() || root == "/") {
    std::stringstream path(std::getenv("LD_LIBRARY_PATH") ? std::getenv("LD_LIBRARY_PATH") : "");
    std::string folder;
    while (std::getline(path, folder, ':')) {
      if (!folder.empty()) folders.push_back(folder);
    }
  }
  for (const char* folder : {"/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu",
                             "/lib/x86_64-linux-gnu", "/lib/aarch64-linux-gnu", "/usr/lib64",
                             "/lib64", "/usr/lib", "/lib", "/usr/local/lib", "/usr/lib/wsl/lib"}) {
    folders.push_back(under(root, folder));
  }
  // ld.so.conf.d holds the folders vendors add (CUDA, ROCm, Intel's NEO).
  for (const std::string& conf : names_in(under(root, "/etc/ld.so.conf.d"))) {
    std::ifstream lines(under(root, "/etc/ld.so.conf.d/" + conf));
    std::string line;
    while (std::getline(lines, line)) {
      if (!line.empty() && line[0] == '/') folders.push_back(under(root, line));
    }
  }
  for (const std::string& folder : extra_folders) folders.push_back(under(root, folder));
  for (const std::string& folder : folders) {
    for (const std::string& name : names) {
      struct stat info {};
      const std::string path = folder + "/" + name;
      if (stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode)) return path;
    }
  }
  return std::nullopt;
}

std::vector<std::string> icd_files_mentioning(const std::string& root, const std::string& word) {
  std::vector<std::string> found;
  const std::string folder = under(root, "/etc/OpenCL/vendors");
  for (const std::string& name : names_in(folder)) {
    if (name.size() < 4 || name.compare(name.size() - 4, 4, ".icd") != 0) continue;
    const std::string library = first_line(folder + "/" + name).value_or("");
    if (name.find(word) != std::string::npos || library.find(word) != std::string::npos) {
      found.push_back(folder + "/" + name);
    }
  }
  return found;
}

std::vector<std::string> render_nodes(const std::string& root, unsigned vendor) {
  std::vector<std::string> nodes;
  for (const std::string& name : names_in(under(root, "/dev/dri"), "renderD")) {
    const auto said = first_line(under(root, "/sys/class/drm/" + name + "/device/vendor"));
    if (!said || hex_value(said) == vendor) nodes.push_back("/dev/dri/" + name);
  }
  return nodes;
}

}  // namespace xgpu::cli::doctor
