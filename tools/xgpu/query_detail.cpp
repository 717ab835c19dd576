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

}  // namespace

void print_detail(std::ostream& out, const Device& device, const Style& style) {
  const std::vector<PropertyGroup> groups =
      device_properties(device.info(), device.index(), device.free_memory());
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
