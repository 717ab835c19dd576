// Unit tests of the `xgpu` command's formatting: units, the table, colour, exit codes, and
// how a device's properties and JSON show a property whose query failed; and how `xgpu bench`
// compares a figure with its baseline. No device needed:
// the DeviceInfo is made up here, which is how a failing driver query can be shown at all.
#include <stdlib.h>

#include <catch2/catch.hpp>
#include <sstream>

#include "bench_util.hpp"
#include "color.hpp"
#include "device_json.hpp"
#include "device_properties.hpp"
#include "exit_codes.hpp"
#include "query_views.hpp"
#include "table.hpp"
#include "units.hpp"

using namespace xgpu::cli;

namespace {

xgpu::DeviceInfo made_up_device() {
  xgpu::DeviceInfo info;
  info.backend = "opencl";
  info.platform_name = "Test Platform";
  info.name = "Test Device";
  info.type = xgpu::DeviceType::gpu;
  info.global_memory = 8ull << 30;
  info.max_allocation = 2ull << 30;
  info.fp64 = true;
  info.extensions = {"cl_khr_fp64", "cl_khr_int64_base_atomics"};
  info.vendor_extras = {{"compute_capability", "9.0"}};
  info.query_errors = {{"global_memory", "CL_OUT_OF_RESOURCES: driver fell over"},
                       {"mystery", "CL_INVALID_VALUE: not a known property"}};
  return info;
}

const Property* find_property(const std::vector<PropertyGroup>& groups, const std::string& key) {
  for (const auto& group : groups) {
    for (const auto& property : group.properties) {
      if (property.key == key) return &property;
    }
  }
  return nullptr;
}

}  // namespace

TEST_CASE("sizes, clocks and versions read as people write them", "[cli]") {
  // Sizes are xgpu::format_bytes, tested in tests/core/test_byte_size.cpp.
  CHECK(xgpu::format_bytes(3996813312) == "3.72 GiB");
  CHECK(gib_column(3996813312) == "3.7");
  CHECK(human_mhz(2299) == "2299 MHz");
  CHECK(human_mhz(0) == "unknown");
  CHECK(hex32(0x8086) == "0x8086");
  CHECK(hex32(66) == "0x0042");
  CHECK(language_version_number("OpenCL C 1.2 PoCL") == "1.2");
  CHECK(language_version_number("OpenCL C 3.0 ") == "3.0");
  CHECK(language_version_number("something else") == "something else");
}

TEST_CASE("a table aligns columns and ignores colour escapes when measuring", "[cli]") {
  Table table;
  table.add_column("#", Table::Align::right);
  table.add_column("NAME");
  table.add_column("FP64");
  table.add_row({"7", Cell("short", "1"), "yes"});
  table.add_row({"12", "a longer name", Cell("no", "2")});
  std::ostringstream plain, painted;
  table.print(plain, Style(false));
  table.print(painted, Style(true));
  CHECK(plain.str() ==
        " #  NAME           FP64\n"
        " 7  short          yes\n"
        "12  a longer name  no\n");
  // Same layout once the escapes are taken out again.
  std::string stripped = painted.str();
  for (std::size_t at; (at = stripped.find('\033')) != std::string::npos;) {
    stripped.erase(at, stripped.find('m', at) - at + 1);
  }
  CHECK(stripped == plain.str());
  CHECK(painted.str() != plain.str());
}

TEST_CASE("colour follows --color, NO_COLOR and the terminal", "[cli]") {
  CHECK(color_enabled(ColorMode::always, stdout));
  CHECK_FALSE(color_enabled(ColorMode::never, stdout));
  // The rule, given the variables (the test sets none: setenv() can race other threads).
  CHECK(color_enabled(ColorMode::automatic, nullptr, "xterm", true));
  CHECK_FALSE(color_enabled(ColorMode::automatic, nullptr, "xterm", false));  // not a terminal
  CHECK_FALSE(color_enabled(ColorMode::automatic, "1", "xterm", true));
  CHECK(color_enabled(ColorMode::automatic, "", "xterm", true));  // empty NO_COLOR: unset
  CHECK_FALSE(color_enabled(ColorMode::automatic, nullptr, "dumb", true));
  CHECK(color_enabled(ColorMode::always, "1", "dumb", false));  // an explicit flag beats NO_COLOR
  CHECK_FALSE(color_enabled(ColorMode::never, nullptr, "xterm", true));
  CHECK(Style(false).red("x") == "x");
  CHECK(Style(true).red("x") == "\033[31mx\033[0m");
}

TEST_CASE("xgpu::Error kinds map to the documented exit codes", "[cli]") {
  CHECK(exit_code_for(xgpu::Errc::invalid_selector) == 2);
  CHECK(exit_code_for(xgpu::Errc::no_device) == 4);
  CHECK(exit_code_for(xgpu::Errc::build_failed) == 1);
}

TEST_CASE("a failed property query shows its error in place of the value", "[cli]") {
  const xgpu::DeviceInfo info = made_up_device();
  const auto groups = device_properties(info, 3);
  std::vector<std::string> titles;
  for (const auto& group : groups) titles.push_back(group.title);
  CHECK(titles == std::vector<std::string>{"identity", "compute", "memory", "precision",
                                           "extensions", "vendor extras", "query errors"});

  const Property* memory = find_property(groups, "global_memory");
  REQUIRE(memory != nullptr);
  CHECK(memory->failed);
  CHECK(memory->value == "error: CL_OUT_OF_RESOURCES: driver fell over");
  const Property* allocation = find_property(groups, "max_allocation");
  REQUIRE(allocation != nullptr);
  CHECK_FALSE(allocation->failed);
  CHECK(allocation->value == "2 GiB (2147483648 bytes)");
  const Property* mystery = find_property(groups, "mystery");
  REQUIRE(mystery != nullptr);
  CHECK(mystery->value == "error: CL_INVALID_VALUE: not a known property");
  CHECK(find_property(groups, "index")->value == "3");
  CHECK(find_property(groups, "uuid")->value == "not reported");
  CHECK(find_property(groups, "vendor_extras.compute_capability")->value == "9.0");
}

TEST_CASE("device JSON has typed fields and nulls a failed one", "[cli]") {
  const Json json = device_json(made_up_device(), 3);
  CHECK(json["index"] == 3);
  CHECK(json["global_memory"].is_null());
  CHECK(json["query_errors"]["global_memory"] == "CL_OUT_OF_RESOURCES: driver fell over");
  CHECK(json["max_allocation"].is_number_unsigned());
  CHECK(json["max_allocation"] == 2147483648ull);
  CHECK(json["fp64"].is_boolean());
  CHECK(json["type"] == Json::array({"gpu"}));
  CHECK(json["extensions"].size() == 2);
  CHECK(json["uuid"].is_null());
  CHECK(json["vendor_extras"]["compute_capability"] == "9.0");
  CHECK(json["max_work_item_sizes"].size() == 3);

  const Json document = query_json({}, {});
  CHECK(document["schema_version"] == kQuerySchemaVersion);
  CHECK(document["devices"].empty());
}

TEST_CASE("JSON text survives invalid UTF-8 from a driver", "[cli]") {
  xgpu::DeviceInfo info = made_up_device();
  info.name = "bad \xff name";
  CHECK_NOTHROW(dump_json(device_json(info, 0)));
}

TEST_CASE("the probe view puts advertised next to observed when they differ", "[cli]") {
  ProbeCheck fp16{"fp16", "yes", "no", "build failed: half unsupported"};
  fp16.overstated = true;
  ProbeCheck fp64{"fp64", "yes", "yes", ""};
  ProbeCheck work_group{"max_work_group_size", "1024", "256", "work-group of 1024: failed"};
  work_group.overstated = true;
  const std::vector<ProbedDevice> probed{{5, "Fib GPU", {fp16, fp64, work_group}}};
  std::ostringstream out;
  print_probe(out, probed, Style(false));
  CHECK(out.str() ==
        "#  NAME     FP16              FP64      MAX WORK-GROUP\n"
        "5  Fib GPU  yes, observed no  yes   1024, observed 256\n"
        "device 5 fp16: build failed: half unsupported\n"
        "device 5 max_work_group_size: work-group of 1024: failed\n");

  const Json json = probe_json(probed[0].checks);
  CHECK(json["fp16"]["advertised"] == true);
  CHECK(json["fp16"]["observed"] == false);
  CHECK(json["fp16"]["agrees"] == false);
  CHECK(json["fp64"]["agrees"] == true);
  CHECK(json["max_work_group_size"]["observed"] == 256);

  ProbeCheck untested{"fp16", "no", "no", "not advertised, so not run"};
  untested.tested = false;
  CHECK(probe_json({untested})["fp16"]["observed"].is_null());
}

TEST_CASE("bench: a paired ratio is the median of the pairs' own ratios", "[bench]") {
  using xgpu::cli::bench::compare_paired;
  using xgpu::cli::bench::compare_with;
  using xgpu::cli::bench::make_figure;
  // The machine slowed down in the last two pairs: both sides took 3x as long there.
  Figure ours = make_figure("s", "ours", "ns", Samples{{110, 110, 110, 330, 330}});
  Figure theirs = make_figure("s", "theirs", "ns", Samples{{100, 100, 100, 300, 300}});
  compare_paired(ours, theirs, 1.05, true);
  CHECK(ours.ratio == Approx(1.10));
  CHECK(ours.baseline == "theirs");
  CHECK(ours.target == "<= 1.05");
  CHECK_FALSE(ours.met);

  // The load rose during the third pair, after its raw half: the ratio of the medians
  // follows that one pair, the median of the pairs does not.
  Figure late = make_figure("s", "late", "ns", Samples{{102, 102, 306, 306, 306}});
  Figure early = make_figure("s", "early", "ns", Samples{{100, 100, 100, 300, 300}});
  compare_with(late, early, 1.05, true);
  CHECK(late.ratio == Approx(3.06));
  compare_paired(late, early, 1.05, true);
  CHECK(late.ratio == Approx(1.02));
  CHECK(late.met);

  // Unpaired samples (different counts) keep the ratio of the medians.
  Figure three = make_figure("s", "three", "ns", Samples{{90, 100, 110}});
  Figure two = make_figure("s", "two", "ns", Samples{{50, 50}});
  compare_paired(three, two, 2.5, true);
  CHECK(three.ratio == Approx(2.0));
  CHECK(three.met);
}
