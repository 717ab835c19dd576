// XGPU_VISIBLE_DEVICES, which the registry reads once per process: these test cases are
// hidden ([.visible...]) and run only from the CTest entries that set the variable.
#include "test_support.hpp"

using xgpu_test::capture_error;
using xgpu_test::check_error;
using xgpu_test::count_implementation;

// Run with two PoCL devices and Oclgrind, XGPU_VISIBLE_DEVICES="pocl:1,oclgrind".
TEST_CASE("XGPU_VISIBLE_DEVICES hides every device not listed", "[.visible_some]") {
  REQUIRE(xgpu_test::env("XGPU_VISIBLE_DEVICES") == std::string("pocl:1,oclgrind"));
  const std::vector<xgpu::Device> devices = xgpu::devices();
  REQUIRE(devices.size() == 2);
  CHECK(count_implementation("pocl") == 1);
  CHECK(count_implementation("oclgrind") == 1);
  for (std::size_t i = 0; i < devices.size(); ++i) CHECK(devices[i].index() == i);
  // Selection sees only the visible devices, renumbered.
  CHECK(xgpu::select("pocl:0") == xgpu::select("pocl"));
  check_error(capture_error([] { xgpu::select("pocl:1"); }), xgpu::Errc::no_device, {"pocl:1"});
  check_error(capture_error([] { xgpu::select("2"); }), xgpu::Errc::no_device);
  // The module still reports every device it offers.
  for (const xgpu::BackendReport& report : xgpu::backends()) {
    if (report.name == "opencl") CHECK(report.device_count == 3);
  }
  // And the visible devices work.
  for (const xgpu::Device& device : devices) {
    xgpu::Context context(device);
    xgpu::Queue queue = context.queue();
    xgpu::Buffer<int> data = context.alloc<int>(3);
    queue.fill(data, 5);
    CHECK(queue.read(data) == std::vector<int>(3, 5));
  }
}

// Run with XGPU_VISIBLE_DEVICES="nvidia": it parses and leaves nothing visible here.
TEST_CASE("XGPU_VISIBLE_DEVICES matching nothing leaves no device", "[.visible_none]") {
  REQUIRE(xgpu_test::env("XGPU_VISIBLE_DEVICES") == std::string("nvidia"));
  CHECK(xgpu::devices().empty());
  check_error(capture_error([] { xgpu::select("*"); }), xgpu::Errc::no_device, {"*"});
  check_error(capture_error([] { xgpu::select(); }), xgpu::Errc::no_device);
  CHECK_FALSE(xgpu::find("pocl").has_value());
}

// Run with XGPU_VISIBLE_DEVICES="nvidai": every call that needs the devices says so.
TEST_CASE("a bad XGPU_VISIBLE_DEVICES is an error naming the variable", "[.visible_bad]") {
  REQUIRE(xgpu_test::env("XGPU_VISIBLE_DEVICES") == std::string("nvidai"));
  for (int attempt = 0; attempt < 2; ++attempt) {
    check_error(capture_error([] { xgpu::devices(); }), xgpu::Errc::invalid_selector,
                {"XGPU_VISIBLE_DEVICES", "nvidai"});
  }
  check_error(capture_error([] { xgpu::select("pocl"); }), xgpu::Errc::invalid_selector,
              {"XGPU_VISIBLE_DEVICES"});
  // The modules themselves loaded fine; only the filter is wrong.
  bool opencl_loaded = false;
  for (const xgpu::BackendReport& report : xgpu::backends()) {
    opencl_loaded |= report.name == "opencl" && report.loaded;
  }
  CHECK(opencl_loaded);
}
