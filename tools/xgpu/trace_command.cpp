// `xgpu trace summary`: reads the Chrome trace-event file xgpu writes (docs/trace.md) and
// sums it up. Device commands are the complete events of categories launch, copy and fill;
// a device is busy while any of its queues runs one, idle in the gaps between. --timeline
// draws the same commands in lanes, one per queue, with the Python package's plotter.
#include "trace_command.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>
#include <xgpu/byte_size.hpp>
#include <xgpu/error.hpp>

#include "exit_codes.hpp"
#include "plotter.hpp"
#include "table.hpp"

namespace xgpu::cli {
namespace {

using nlohmann::json;

struct Command {
  std::string name;
  std::string category;
  double begin = 0;  ///< microseconds since the trace started
  double end = 0;
  bool host_clock = false;  ///< times from the host, not the device's profiling
};

struct Totals {
  std::size_t count = 0;
  double total = 0;
  double max = 0;
  std::uint64_t bytes = 0;
  void add(double duration, std::uint64_t more_bytes = 0) {
    ++count;
    total += duration;
    max = std::max(max, duration);
    bytes += more_bytes;
  }
};

struct Gap {
  int pid;
  double begin;
  double end;
  std::string after;
  std::string before;
};

// The fields of one trace event, checked as they are read: a field of another type than the
// format's, or a time that is no finite number of microseconds, is refused naming the file
// and the event (the JSON library's type errors name neither, and a NaN would break the
// sorts below).
class EventFields {
 public:
  EventFields(const std::string& path, std::size_t index, const json& event)
      : path_(path), index_(index), event_(event) {}

  [[noreturn]] void refuse(const std::string& why) const {
    throw Error(Errc::invalid_argument,
                "'" + path_ + "': trace event " + std::to_string(index_) + ": " + why,
                "xgpu trace summary");
  }
  std::string text(const json& object, const char* name, const std::string& fallback) const {
    const json* value = member(object, name, &json::is_string, "a string");
    return value ? value->get<std::string>() : fallback;
  }
  std::string text(const char* name, const std::string& fallback) const {
    return text(event_, name, fallback);
  }
  /// "args": an object, or an empty one when absent.
  json args() const {
    const json* value = member(event_, "args", &json::is_object, "an object");
    return value ? *value : json::object();
  }
  /// "ts" or "dur" in microseconds: finite, and a duration not negative.
  double microseconds(const char* name) const {
    const json* value = member(event_, name, &json::is_number, "a number");
    const double us = value ? value->get<double>() : 0;
    if (!std::isfinite(us) || (us < 0 && std::string(name) == "dur"))
      refuse("\"" + std::string(name) + "\" is " + value->dump() + ", not a time in microseconds");
    return us;
  }
  int pid() const {
    const json* value = member(event_, "pid", &json::is_number_integer, "an integer");
    if (!value) return 0;
    const bool fits = value->is_number_unsigned()
                          ? value->get<std::uint64_t>() <= std::numeric_limits<int>::max()
                          : value->get<std::int64_t>() >= std::numeric_limits<int>::min() &&
                                value->get<std::int64_t>() <= std::numeric_limits<int>::max();
    if (!fits) refuse("\"pid\" is " + value->dump() + ", out of range");
    return static_cast<int>(value->get<std::int64_t>());
  }
  std::uint64_t bytes(const json& args) const {
    const json* value = member(args, "bytes", &json::is_number_unsigned, "a count of bytes");
    return value ? value->get<std::uint64_t>() : 0;
  }

 private:
  // The member, checked to be of a type; nullptr when absent or null.
  const json* member(const json& object, const char* name, bool (json::*is)() const noexcept,
                     const char* type) const {
    const auto found = object.find(name);
    if (found == object.end() || found->is_null()) return nullptr;
    if (!((*found).*is)()) refuse("\"" + std::string(name) + "\" is not " + type);
    return &*found;
  }

  const std::string& path_;
  std::size_t index_;
  const json& event_;
};

json read_trace(const std::string& path) {
  std::ifstream in(path);
  if (!in) {
    throw Error(Errc::invalid_argument, "cannot read the trace file '" + path + "'",
                "xgpu trace summary");
  }
  std::stringstream text;
  text << in.rdbuf();
  // A trace cut short (the program died before xgpu::trace::stop) lacks the closing "]}".
  for (const char* ending : {"", "]}", "\n]}"}) {
    json trace = json::parse(text.str() + ending, nullptr, false);
    if (!trace.is_discarded() && trace.is_object() && trace.contains("traceEvents") &&
        trace["traceEvents"].is_array())
      return trace;
  }
  throw Error(Errc::invalid_argument,
              "'" + path + "' is not a Chrome trace-event file (a JSON object with traceEvents)",
              "xgpu trace summary");
}

std::string duration_text(double us) {
  char text[32];
  if (us < 1000)
    std::snprintf(text, sizeof text, "%.1f us", us);
  else if (us < 1e6)
    std::snprintf(text, sizeof text, "%.3f ms", us / 1e3);
  else
    std::snprintf(text, sizeof text, "%.3f s", us / 1e6);
  return text;
}

std::string fixed(double value, int digits) {
  char text[32];
  std::snprintf(text, sizeof text, "%.*f", digits, value);
  return text;
}

// Sorted by total time, largest first; equal totals by name, so output is stable.
template <class Map>
std::vector<std::pair<std::string, Totals>> by_total(const Map& groups) {
  std::vector<std::pair<std::string, Totals>> sorted(groups.begin(), groups.end());
  std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) {
    return a.second.total != b.second.total ? a.second.total > b.second.total : a.first < b.first;
  });
  return sorted;
}

void print_kernels(const std::map<std::string, Totals>& kernels, std::ostream& out,
                   const Style& style) {
  out << style.bold("Kernels by total device time") << "\n";
  if (kernels.empty()) {
    out << "  (no launches)\n\n";
    return;
  }
  double all = 0;
  for (const auto& [name, totals] : kernels) all += totals.total;
  Table table;
  table.add_column("KERNEL");
  for (const char* column : {"COUNT", "TOTAL", "MEAN", "MAX", "SHARE"})
    table.add_column(column, Table::Align::right);
  for (const auto& [name, totals] : by_total(kernels)) {
    table.add_row({name, std::to_string(totals.count), duration_text(totals.total),
                   duration_text(totals.total / totals.count), duration_text(totals.max),
                   fixed(all > 0 ? 100 * totals.total / all : 100, 1) + "%"});
  }
  table.print(out, style);
  out << "\n";
}

void print_copies(const std::map<std::string, Totals>& copies, std::ostream& out,
                  const Style& style) {
  out << style.bold("Copies by direction") << "\n";
  if (copies.empty()) {
    out << "  (no copies or fills)\n\n";
    return;
  }
  Table table;
  table.add_column("DIRECTION");
  for (const char* column : {"COUNT", "BYTES", "TOTAL", "GB/S"})
    table.add_column(column, Table::Align::right);
  for (const auto& [direction, totals] : by_total(copies)) {
    const double rate = totals.total > 0 ? static_cast<double>(totals.bytes) / (totals.total * 1e3)
                                         : 0;  // bytes per ns = GB/s
    table.add_row({direction, std::to_string(totals.count), format_bytes(totals.bytes),
                   duration_text(totals.total), fixed(rate, 2)});
  }
  table.print(out, style);
  out << "\n";
}

// Busy time, span and the gaps of one device's commands (any queue).
std::vector<Gap> find_gaps(int pid, std::vector<Command> commands, double& busy, double& span) {
  std::sort(commands.begin(), commands.end(),
            [](const Command& a, const Command& b) { return a.begin < b.begin; });
  std::vector<Gap> gaps;
  busy = 0;
  span = commands.back().end - commands.front().begin;
  double covered_until = commands.front().begin;
  std::string last_name = commands.front().name;
  for (const Command& command : commands) {
    if (command.begin > covered_until)
      gaps.push_back({pid, covered_until, command.begin, last_name, command.name});
    if (command.end > covered_until) {
      busy += command.end - std::max(command.begin, covered_until);
      covered_until = command.end;
      last_name = command.name;
    }
  }
  span = covered_until - commands.front().begin;
  return gaps;
}

void print_gaps(const std::map<int, std::vector<Command>>& by_device,
                const std::map<int, std::string>& process_names, std::size_t listed,
                std::ostream& out, const Style& style) {
  out << style.bold("Device time and idle gaps") << "\n";
  if (by_device.empty()) {
    out << "  (no device commands)\n";
    return;
  }
  Table table;
  table.add_column("DEVICE");
  for (const char* column : {"COMMANDS", "BUSY", "SPAN", "IDLE", "GAPS", "LONGEST"})
    table.add_column(column, Table::Align::right);
  std::vector<Gap> all_gaps;
  bool host_clock = false;
  for (const auto& [pid, commands] : by_device) {
    double busy = 0, span = 0;
    std::vector<Gap> gaps = find_gaps(pid, commands, busy, span);
    double longest = 0;
    for (const Gap& gap : gaps) longest = std::max(longest, gap.end - gap.begin);
    for (const Command& command : commands) host_clock = host_clock || command.host_clock;
    auto name = process_names.find(pid);
    table.add_row({name != process_names.end() ? name->second : "pid " + std::to_string(pid),
                   std::to_string(commands.size()), duration_text(busy), duration_text(span),
                   duration_text(span - busy), std::to_string(gaps.size()),
                   duration_text(longest)});
    all_gaps.insert(all_gaps.end(), gaps.begin(), gaps.end());
  }
  table.print(out, style);
  if (host_clock) {
    out << "Some commands ran on queues without profiling: their times are host times (enqueue\n"
           "to observed completion), so their gaps are approximate.\n";
  }
  if (all_gaps.empty() || listed == 0) return;
  std::sort(all_gaps.begin(), all_gaps.end(), [](const Gap& a, const Gap& b) {
    return a.end - a.begin != b.end - b.begin ? a.end - a.begin > b.end - b.begin
                                              : a.begin < b.begin;
  });
  if (all_gaps.size() > listed) all_gaps.resize(listed);
  out << "\n" << style.bold("Longest idle gaps") << "\n";
  Table longest;
  longest.add_column("DEVICE");
  longest.add_column("AT", Table::Align::right);
  longest.add_column("LENGTH", Table::Align::right);
  longest.add_column("AFTER");
  longest.add_column("BEFORE");
  for (const Gap& gap : all_gaps) {
    auto name = process_names.find(gap.pid);
    std::string device = name != process_names.end() ? name->second : std::to_string(gap.pid);
    longest.add_row({device.substr(0, device.find(':')), duration_text(gap.begin),
                     duration_text(gap.end - gap.begin), gap.after, gap.before});
  }
  longest.print(out, style);
}

}  // namespace

void print_trace_summary(const std::string& path, std::size_t gaps, std::ostream& out) {
  const json trace = read_trace(path);
  std::map<int, std::string> process_names;
  std::map<std::string, Totals> kernels, copies;
  std::map<int, std::vector<Command>> by_device;
  std::size_t builds = 0;
  const json& events = trace["traceEvents"];
  for (std::size_t index = 0; index < events.size(); ++index) {
    const json& event = events[index];
    if (!event.is_object()) continue;
    const EventFields fields(path, index, event);
    const std::string phase = fields.text("ph", "");
    const int pid = fields.pid();
    if (phase == "M" && fields.text("name", "") == "process_name" && event.contains("args")) {
      process_names[pid] = fields.text(fields.args(), "name", "");
      continue;
    }
    if (phase != "X") continue;
    const std::string category = fields.text("cat", "");
    if (category == "build") ++builds;
    if (category != "launch" && category != "copy" && category != "fill") continue;
    const json args = fields.args();
    Command command{fields.text("name", "?"), category, fields.microseconds("ts"), 0,
                    fields.text(args, "clock", "").rfind("host", 0) == 0};
    const double duration = fields.microseconds("dur");
    command.end = command.begin + duration;
    if (!std::isfinite(command.end)) fields.refuse("it ends past the largest time");
    if (category == "launch") {
      kernels[command.name].add(duration);
    } else {
      copies[fields.text(args, "direction", category)].add(duration, fields.bytes(args));
    }
    by_device[pid].push_back(std::move(command));
  }
  Style style;
  std::size_t launches = 0, transfers = 0;
  for (const auto& [name, totals] : kernels) launches += totals.count;
  for (const auto& [name, totals] : copies) transfers += totals.count;
  out << path << ": " << by_device.size() << " device(s), " << launches << " launch(es), "
      << transfers << " copy/fill(s), " << builds << " build(s)\n\n";
  print_kernels(kernels, out, style);
  print_copies(copies, out, style);
  print_gaps(by_device, process_names, gaps, out, style);
}

Run setup_trace(CLI::App& sub) {
  struct Options {
    std::string file;
    std::size_t gaps = 5;
    std::string timeline;
  };
  auto options = std::make_shared<Options>();
  sub.require_subcommand(1);
  sub.footer(
      "Write a trace with XGPU_TRACE=trace.json (or xgpu::trace::start); open it in\n"
      "https://ui.perfetto.dev or chrome://tracing, or sum it up here.\n"
      "Example:\n"
      "  XGPU_TRACE=run.json ./my_program && xgpu trace summary run.json\n"
      "  xgpu trace summary run.json --timeline run.png   lanes of copies and kernels");
  CLI::App* summary = sub.add_subcommand(
      "summary", "Kernels by device time, copies by direction, idle gaps of each device");
  summary->add_option("FILE", options->file, "A trace file (a cut-short one too)")->required();
  summary->add_option("--gaps", options->gaps, "How many of the longest idle gaps to list")
      ->capture_default_str();
  summary->add_option("--timeline", options->timeline,
                      "Also draw the copies and kernels of each queue over time into FILE (.png, "
                      ".svg or .pdf; needs the Python package: tools/setup.sh installs it)");
  return [options]() {
    print_trace_summary(options->file, options->gaps, std::cout);
    if (options->timeline.empty()) return int{kExitOk};
    return run_plotter({"--timeline", options->file, "-o", options->timeline});
  };
}

}  // namespace xgpu::cli
