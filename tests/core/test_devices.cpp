// Device discovery: the device list, every DeviceInfo field, and the backend reports.
// CTest tells each run what it should see (XGPU_TEST_EXPECT_POCL, XGPU_TEST_EXPECT_OCLGRIND)
// and what it must find (XGPU_TEST_REQUIRE_PLATFORMS).
#include <algorithm>
#include <cctype>
#include <set>

#include "test_support.hpp"

using xgpu_test::count_implementation;
using xgpu_test::env_number;

namespace {

bool is_hex(const std::string& text) {
  return std::all_of(text.begin(), text.end(),
                     [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; });
}

// "dddd:bb:dd.f", all hex digits.
bool is_pci_bus_id(const std::string& text) {
  if (text.size() != 12 || text[4] != ':' || text[7] != ':' || text[10] != '.') return false;
  std::string digits = text.substr(0, 4) + text.substr(5, 2) + text.substr(8, 2) + text[11];
  return is_hex(digits);
}

bool starts_with(const std::string& text, const std::string& prefix) {
  return text.compare(0, prefix.size(), prefix) == 0;
}

}  // namespace

TEST_CASE("discovery finds PoCL and Oclgrind when its ICD is listed", "[devices]") {
  const std::vector<xgpu::Device> devices = xgpu::devices();
  REQUIRE_FALSE(devices.empty());
  CHECK(count_implementation("pocl") >= 1);
  if (auto pocl = env_number("XGPU_TEST_EXPECT_POCL")) {
    CHECK(count_implementation("pocl") == static_cast<std::size_t>(*pocl));
  }
  if (auto oclgrind = env_number("XGPU_TEST_EXPECT_OCLGRIND")) {
    CHECK(count_implementation("oclgrind") == static_cast<std::size_t>(*oclgrind));
  }
  // A second call gives the same devices: discovery happens once.
  CHECK(xgpu::devices() == devices);
}

TEST_CASE("every platform the run requires is found", "[devices]") {
  // XGPU_TEST_REQUIRE_PLATFORMS=pocl,oclgrind (tools/setup.sh test, so CI): a platform that
  // is missing would otherwise only shrink every device loop, and its tests pass unrun.
  const std::vector<std::string> required = xgpu_test::required_platforms();
  if (required.empty()) SUCCEED("XGPU_TEST_REQUIRE_PLATFORMS is not set: nothing required");
  for (const std::string& name : required) {
    INFO("XGPU_TEST_REQUIRE_PLATFORMS names " << name << ", but no visible device is one: is "
                                              << name << " installed and in the ICD folder?");
    CHECK(count_implementation(name) >= 1);
  }
}

TEST_CASE("devices are values that know their place", "[devices]") {
  const std::vector<xgpu::Device> devices = xgpu::devices();
  std::set<std::string> selectors;  // one each: the devices are distinct
  for (std::size_t i = 0; i < devices.size(); ++i) {
    const xgpu::Device& device = devices[i];
    INFO(device.describe());
    CHECK(device);
    CHECK(device.index() == i);
    selectors.insert(device.selector());
    // describe() names the device's own selector (its backend and its place among that
    // backend's devices), which picks exactly it, and the device.
    CHECK_THAT(device.describe(), Catch::Matchers::Contains(device.info().name));
    CHECK_THAT(device.describe(), Catch::Matchers::StartsWith(device.selector() + " "));
    CHECK_THAT(device.selector(), Catch::Matchers::StartsWith(device.info().backend + ":"));
    CHECK(xgpu::select(device.selector()) == device);
    // No GPU here is seen by two modules: every device is its own physical device.
    CHECK(device.aliases().empty());
    xgpu::Device copy = device;
    CHECK(copy == device);
    if (i > 0) CHECK(device != devices[0]);
  }
  CHECK(selectors.size() == devices.size());
  CHECK_FALSE(xgpu::Device());
}

TEST_CASE("every DeviceInfo field is sane", "[devices]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      const xgpu::DeviceInfo& info = device.info();
      CHECK(info.backend == "opencl");
      CHECK_FALSE(info.platform_name.empty());
      CHECK_FALSE(info.platform_vendor.empty());
      CHECK(starts_with(info.platform_version, "OpenCL "));
      CHECK_FALSE(info.name.empty());
      CHECK_FALSE(info.vendor.empty());
      CHECK_FALSE(info.hardware_vendor.empty());
      CHECK_FALSE(info.implementation.empty());
      CHECK(info.type != 0);
      CHECK((info.type & ~std::uint32_t{7}) == 0);
      CHECK_FALSE(info.type_name().empty());
      CHECK(starts_with(info.device_version, "OpenCL "));
      CHECK_FALSE(info.driver_version.empty());
      CHECK(starts_with(info.language_version, "OpenCL C "));
      CHECK(info.global_memory > 0);
      CHECK(info.max_allocation > 0);
      CHECK(info.max_allocation <= info.global_memory);
      CHECK(info.local_memory > 0);
      CHECK(info.max_parameter_size >= 256);  // OpenCL's minimum for any device
      CHECK(info.compute_units >= 1);
      CHECK(info.max_work_group_size >= 1);
      for (std::size_t items : info.max_work_item_sizes) CHECK(items >= 1);
      CHECK(info.work_group_multiple >= 1);
      CHECK(info.work_group_multiple <= info.max_work_group_size);

      REQUIRE_FALSE(info.extensions.empty());
      for (const std::string& extension : info.extensions) {
        CHECK_FALSE(extension.empty());
        CHECK(extension.find(' ') == std::string::npos);
        CHECK(info.has_extension(extension));
      }
      CHECK_FALSE(info.has_extension("cl_xgpu_no_such_extension"));
      CHECK_FALSE(info.has_extension(""));
      if (info.has_extension("cl_khr_fp64")) CHECK(info.fp64);
      if (info.has_extension("cl_khr_fp16")) CHECK(info.fp16);

      if (!info.uuid.empty()) {
        CHECK(info.uuid.size() == 32);
        CHECK(is_hex(info.uuid));
      }
      if (!info.pci_bus_id.empty()) CHECK(is_pci_bus_id(info.pci_bus_id));
      for (const auto& [key, value] : info.vendor_extras) {
        CHECK_FALSE(key.empty());
        CHECK_FALSE(value.empty());
      }
      for (const auto& [property, reason] : info.query_errors) {
        INFO(property << ": " << reason);
        CHECK_FALSE(reason.empty());
      }
    }
  }
}

TEST_CASE("PoCL and Oclgrind devices are classified as what they are", "[devices]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      const xgpu::DeviceInfo& info = device.info();
      if (info.implementation == "pocl") {
        CHECK(info.type == xgpu::DeviceType::cpu);
        CHECK(info.type_name() == "cpu");
        CHECK(info.host_unified_memory);
        // PoCL reports 0x8086 for any CPU: the hardware vendor must come from the name.
        if (info.name.find("AMD") != std::string::npos) CHECK(info.hardware_vendor == "amd");
        if (info.name.find("Intel") != std::string::npos) CHECK(info.hardware_vendor == "intel");
        CHECK(info.query_errors.empty());
      } else if (info.implementation == "oclgrind") {
        CHECK(info.platform_name == "Oclgrind");
        CHECK(info.hardware_vendor == "simulator");
        CHECK(info.vendor_id == 0x42);
        CHECK((info.type & xgpu::DeviceType::cpu) != 0);
        CHECK((info.type & xgpu::DeviceType::gpu) != 0);
        CHECK_THAT(info.type_name(), Catch::Matchers::Contains("|"));
      }
    }
  }
}

TEST_CASE("backends() reports the opencl module loaded with its devices", "[devices]") {
  const std::vector<xgpu::BackendReport> reports = xgpu::backends();
  auto opencl = std::find_if(reports.begin(), reports.end(),
                             [](const xgpu::BackendReport& r) { return r.name == "opencl"; });
  REQUIRE(opencl != reports.end());
  INFO("opencl module: " << opencl->path << ": " << opencl->message);
  CHECK(opencl->loaded);
  CHECK_THAT(opencl->path, Catch::Matchers::EndsWith("libxgpu-backend-opencl.so"));
  std::size_t opencl_devices = 0;
  for (const xgpu::Device& device : xgpu::devices())
    opencl_devices += device.info().backend == "opencl";
  CHECK(opencl->device_count >= opencl_devices);
  CHECK(opencl->device_count >= 1);

  const std::vector<std::string> path = xgpu::backend_search_path();
  CHECK_FALSE(path.empty());
  CHECK(std::string(xgpu::version()) == XGPU_VERSION_STRING);
}
