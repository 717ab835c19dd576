// Physical identity and the backend order (see physical.hpp).
#include "physical.hpp"

#include <algorithm>
#include <cctype>

#include "log.hpp"
#include "registry.hpp"
#include "util/closest_word.hpp"
#include "xgpu/common/settings.hpp"
#include "xgpu/error.hpp"

namespace xgpu::detail {
namespace {

[[noreturn]] void bad_order(const std::string& text, const std::string& why) {
  throw Error(Errc::invalid_argument,
              "XGPU_BACKEND_ORDER='" + text + "': " + why +
                  " (a comma-separated list of backend modules, first preferred, e.g. "
                  "cuda,opencl)",
              "XGPU_BACKEND_ORDER");
}

std::string trimmed_lower(const std::string& text) {
  std::size_t begin = 0, end = text.size();
  while (begin < end && std::isspace(static_cast<unsigned char>(text[begin]))) ++begin;
  while (end > begin && std::isspace(static_cast<unsigned char>(text[end - 1]))) --end;
  std::string out = text.substr(begin, end - begin);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Both report a UUID: the UUIDs decide. Otherwise the PCI bus ids, when both report one (a
// driver too old for cl_khr_device_uuid still reports its PCI address).
bool same_hardware(const DeviceInfo& a, const DeviceInfo& b) {
  if (!a.uuid.empty() && !b.uuid.empty()) return a.uuid == b.uuid;
  return !a.pci_bus_id.empty() && a.pci_bus_id == b.pci_bus_id;
}

bool has_identity(const DeviceInfo& info) { return !info.uuid.empty() || !info.pci_bus_id.empty(); }

}  // namespace

std::vector<std::string> backend_order(const std::vector<std::string>& known) {
  return parse_backend_order(common::setting_text(common::Setting::backend_order), known);
}

std::vector<std::string> parse_backend_order(const std::string& value,
                                             const std::vector<std::string>& known) {
  const std::string text =
      value.empty() ? common::spec(common::Setting::backend_order).default_value : value;
  std::vector<std::string> order;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    const std::string name = trimmed_lower(text.substr(start, comma - start));
    if (name.empty()) bad_order(text, "it has an empty name");
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      std::string list;
      for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
      bad_order(text, "unknown backend '" + name + "'" + util::did_you_mean(name, known) +
                          "; known: " + list);
    }
    if (std::find(order.begin(), order.end(), name) != order.end())
      bad_order(text, "'" + name + "' is named twice");
    order.push_back(name);
    if (comma == std::string::npos) return order;
    start = comma + 1;
  }
}

std::size_t backend_rank(const std::string& backend, const std::vector<std::string>& order) {
  return static_cast<std::size_t>(std::find(order.begin(), order.end(), backend) - order.begin());
}

void link_aliases(const std::vector<DeviceRecord*>& devices) {
  // Groups of one physical device, each holding at most one device per module.
  std::vector<std::vector<DeviceRecord*>> groups;
  for (DeviceRecord* device : devices) {
    device->aliases.clear();
    device->physical_id.clear();
    if (!has_identity(device->info)) continue;
    std::vector<DeviceRecord*>* home = nullptr;
    for (auto& group : groups) {
      const bool matches = std::any_of(group.begin(), group.end(), [&](const DeviceRecord* m) {
        return same_hardware(m->info, device->info);
      });
      if (!matches) continue;
      const bool module_taken = std::any_of(group.begin(), group.end(), [&](const DeviceRecord* m) {
        return m->module == device->module;
      });
      if (module_taken) {
        // A driver that gives two of its devices one identity: trust its device list instead.
        logger("loader").debug(
            "device {} ({}) reports the identity of another {} device; kept "
            "as a device of its own",
            device->global_index, device->info.name, device->info.backend);
        continue;
      }
      home = &group;
      break;
    }
    if (home == nullptr) {
      groups.push_back({device});
    } else {
      home->push_back(device);
    }
  }
  for (const auto& group : groups) {
    // The UUID where any member reports it, else the PCI bus id: one id for the whole group.
    std::string id;
    for (const DeviceRecord* m : group) {
      if (!m->info.uuid.empty()) {
        id = "uuid:" + m->info.uuid;
        break;
      }
    }
    if (id.empty()) id = "pci:" + group.front()->info.pci_bus_id;
    for (DeviceRecord* m : group) {
      m->physical_id = id;
      for (DeviceRecord* other : group) {
        if (other != m) m->aliases.push_back(other);
      }
    }
    if (group.size() > 1) {
      std::string names;
      for (const DeviceRecord* m : group) names += " " + m->info.backend;
      logger("loader").debug("one physical device ({}) through:{}", id, names);
    }
  }
}

const DeviceRecord* preferred_alias(const DeviceRecord& record,
                                    const std::vector<std::string>& order,
                                    const std::function<bool(const DeviceRecord&)>& usable) {
  const DeviceRecord* best = usable(record) ? &record : nullptr;
  auto better = [&](const DeviceRecord* a, const DeviceRecord* b) {
    const std::size_t rank_a = backend_rank(a->info.backend, order);
    const std::size_t rank_b = backend_rank(b->info.backend, order);
    return rank_a != rank_b ? rank_a < rank_b : a->global_index < b->global_index;
  };
  for (const DeviceRecord* alias : record.aliases) {
    if (usable(*alias) && (best == nullptr || better(alias, best))) best = alias;
  }
  return best;
}

}  // namespace xgpu::detail
