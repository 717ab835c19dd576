// The short views of `xgpu query`: the device table, the -l tree, the --select line and the
// notes on backend modules that offer nothing.
#include <string>
#include <utility>

#include "query_views.hpp"
#include "table.hpp"
#include "units.hpp"

namespace xgpu::cli {
namespace {

Cell flag_cell(bool value) { return Cell(yes_no(value), value ? "32" : "2"); }

std::string one_line_summary(const Device& device) {
  const DeviceInfo& info = device.info();
  std::string also;
  for (const Device& alias : device.aliases()) also += ", also " + alias.selector();
  return info.type_name() + ", " + info.hardware_vendor + ", " +
         std::to_string(info.compute_units) + " CU, " + format_bytes(info.global_memory) + also;
}

}  // namespace

std::string backend_label(const Device& device, bool all_backends) {
  if (all_backends) {
    // One row per module device: the selector naming it, and whether selectors without a
    // backend see another row of the same number instead.
    const bool seen = devices()[device.index()] == device;
    return device.selector() + (seen ? "" : " (alias)");
  }
  std::string also;
  for (const Device& alias : device.aliases())
    also += (also.empty() ? "" : ", ") + alias.selector();
  return also.empty() ? device.info().backend : device.info().backend + " (also " + also + ")";
}

void print_table(std::ostream& out, const std::vector<Device>& devices, const Style& style,
                 bool all_backends) {
  using Align = Table::Align;
  Table table;
  table.add_column("#", Align::right);
  table.add_column("BACKEND");
  table.add_column("PLATFORM");
  table.add_column("NAME");
  table.add_column("TYPE");
  table.add_column("VENDOR");
  table.add_column("CU", Align::right);
  table.add_column("MEM GiB", Align::right);
  table.add_column("OPENCL C");
  table.add_column("FP16");
  table.add_column("FP64");
  for (const Device& device : devices) {
    const DeviceInfo& info = device.info();
    table.add_row({std::to_string(device.index()), backend_label(device, all_backends),
                   info.platform_name, Cell(info.name, "1"), info.type_name(), info.hardware_vendor,
                   std::to_string(info.compute_units), gib_column(info.global_memory),
                   language_version_number(info.language_version), flag_cell(info.fp16),
                   flag_cell(info.fp64)});
  }
  table.print(out, style);
}

void print_tree(std::ostream& out, const std::vector<Device>& devices, const Style& style) {
  // Devices of one platform are adjacent in xgpu's order, but group by key anyway so that a
  // filtered list never shows the same platform twice.
  std::vector<std::pair<std::string, std::vector<const Device*>>> platforms;
  for (const Device& device : devices) {
    const std::string key = device.info().backend + "  " + device.info().platform_name;
    auto it = platforms.begin();
    while (it != platforms.end() && it->first != key) ++it;
    if (it == platforms.end()) it = platforms.insert(platforms.end(), {key, {}});
    it->second.push_back(&device);
  }
  for (const auto& [platform, members] : platforms) {
    out << style.bold(platform) << '\n';
    for (std::size_t i = 0; i < members.size(); ++i) {
      const Device& device = *members[i];
      out << (i + 1 == members.size() ? " `-- " : " +-- ") << device.index() << "  "
          << style.bold(device.info().name) << "  "
          << style.dim("(" + one_line_summary(device) + ")") << '\n';
    }
  }
}

void print_probe(std::ostream& out, const std::vector<ProbedDevice>& probed, const Style& style) {
  Table table;
  table.add_column("#", Table::Align::right);
  table.add_column("NAME");
  table.add_column("FP16");
  table.add_column("FP64");
  table.add_column("MAX WORK-GROUP", Table::Align::right);
  std::vector<std::string> notes;
  for (const ProbedDevice& device : probed) {
    std::vector<Cell> row{std::to_string(device.index), device.name};
    for (const ProbeCheck& check : device.checks) {
      if (check.agrees()) {
        row.emplace_back(check.observed, "32");
        continue;
      }
      // Overstated (promised, not delivered) is red; understated only yellow.
      row.emplace_back(check.advertised + ", observed " + check.observed,
                       check.overstated ? "31" : "33");
      notes.push_back("device " + std::to_string(device.index) + " " + check.name + ": " +
                      (check.detail.empty() ? "works although not advertised" : check.detail));
    }
    table.add_row(std::move(row));
  }
  table.print(out, style);
  for (const std::string& note : notes) out << note << '\n';
}

void print_pick(std::ostream& out, const Device& device, const Style& style) {
  const DeviceInfo& info = device.info();
  out << device.index() << "  " << backend_label(device, false) << "  " << style.bold(info.name)
      << "  (" << info.platform_name << ")\n";
}

std::size_t print_backend_notes(std::ostream& out, const std::vector<BackendReport>& reports,
                                const Style& style) {
  std::size_t lines = 0;
  for (const BackendReport& report : reports) {
    std::string what;
    if (!report.loaded) {
      what = style.red("refused");
    } else if (report.driver_absent) {
      continue;  // a module for hardware this machine has no driver for: --modules says so
    } else if (report.device_count == 0) {
      what = style.yellow("no device");
    } else if (!report.message.empty()) {
      what = style.yellow("note");
    } else {
      continue;
    }
    out << "backend " << report.name;
    if (!report.path.empty()) out << " (" << report.path << ")";
    out << ": " << what;
    if (!report.message.empty()) out << ": " << report.message;
    out << '\n';
    ++lines;
  }
  return lines;
}

void print_modules(std::ostream& out, const std::vector<BackendReport>& reports,
                   const Style& style) {
  for (const BackendReport& report : reports) {
    out << "backend " << report.name;
    if (!report.path.empty()) out << " (" << report.path << ")";
    if (!report.loaded) {
      out << ": " << style.red("refused");
    } else if (report.device_count == 0) {
      out << ": " << style.yellow("loaded, no device");
    } else {
      out << ": " << style.green("loaded") << ", " << report.device_count
          << (report.device_count == 1 ? " device" : " devices");
    }
    if (!report.message.empty()) out << ": " << report.message;
    out << '\n';
  }
}

}  // namespace xgpu::cli
