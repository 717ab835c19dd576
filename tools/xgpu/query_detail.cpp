// `xgpu query -d SEL`: every property of one device, in groups, with aligned values.
#include <algorithm>
#include <cctype>

#include "device_properties.hpp"
#include "query_views.hpp"
#include "table.hpp"

namespace xgpu::cli {
namespace {

std::string capitalised(std::string text) {
  if (!text.empty()) text[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(text[0])));
  return text;
}

// The physical device behind this one, after the PCI bus id: what only a Device knows.
void add_identity(std::vector<PropertyGroup>& groups, const Device& device) {
  std::string also;
  for (const Device& alias : device.aliases())
    also += (also.empty() ? "" : ", ") + alias.selector();
  for (auto& group : groups) {
    auto at = std::find_if(group.properties.begin(), group.properties.end(),
                           [](const Property& p) { return p.key == "pci_bus_id"; });
    if (at == group.properties.end()) continue;
    const std::string id = device.physical_id();
    at = group.properties.insert(
        at + 1, Property{"physical_id", "Physical id", id.empty() ? "none (never merged)" : id});
    group.properties.insert(at + 1, Property{"aliases", "Also seen as", also.empty() ? "-" : also});
    return;
  }
}

}  // namespace

void print_detail(std::ostream& out, const Device& device, const Style& style) {
  std::vector<PropertyGroup> groups =
      device_properties(device.info(), device.index(), device.free_memory());
  add_identity(groups, device);
  // One label width for the whole device, so every value starts in the same column.
  std::size_t width = 0;
  for (const auto& group : groups) {
    for (const auto& property : group.properties) {
      width = std::max(width, display_width(property.label));
    }
  }
  out << style.bold("Device " + std::to_string(device.index()) + ": " + device.info().name) << '\n';
  for (const auto& group : groups) {
    out << '\n' << style.cyan(capitalised(group.title)) << '\n';
    for (const auto& property : group.properties) {
      out << "  " << property.label << std::string(width - display_width(property.label) + 2, ' ')
          << (property.failed ? style.red(property.value) : property.value) << '\n';
    }
  }
}

}  // namespace xgpu::cli
