// One GPU seen by two modules, as NVIDIA's OpenCL and CUDA see it, with no GPU: the stub module
// built as "opencl" (tests/modules/stub_backend, first on XGPU_BACKEND_PATH so it replaces the
// OpenCL module) and the cuda module on the fake libcuda report one UUID. The registry reads
// XGPU_BACKEND_ORDER and XGPU_VISIBLE_DEVICES once per process: each case is hidden and run
// by its own CTest entry (tests/CMakeLists.txt, unit.aliases.*).
#include <xgpu/device_group.hpp>

#include "test_support.hpp"

using xgpu_test::capture_error;
using xgpu_test::check_error;

namespace {

const std::string kPhysicalId = "uuid:a0a1a2a3a4a5a6a7a8a9aaabacadaeaf";

// The entry's set-up: both modules loaded, each with the one GPU.
void require_two_modules_one_gpu() {
  const std::vector<xgpu::Device> all = xgpu::backend_devices();
  REQUIRE(all.size() == 2);
  for (const xgpu::Device& device : all) {
    INFO(device.describe());
    CHECK(device.physical_id() == kPhysicalId);
    REQUIRE(device.aliases().size() == 1);
    CHECK(device.aliases()[0].info().backend != device.info().backend);
    CHECK(device.is_alias_of(device.aliases()[0]));
    CHECK_FALSE(device.is_alias_of(device));
  }
}

std::string backend_of(const xgpu::Device& device) { return device.info().backend; }

}  // namespace

TEST_CASE("one GPU of two modules is one device, through opencl by default", "[.aliases]") {
  require_two_modules_one_gpu();
  CHECK(xgpu::backend_order() == std::vector<std::string>{"opencl", "cuda"});
  const std::vector<xgpu::Device> devices = xgpu::devices();
  REQUIRE(devices.size() == 1);
  CHECK(backend_of(devices[0]) == "opencl");
  CHECK(devices[0].index() == 0);
  // Every selector naming no backend sees it once, through opencl.
  CHECK(backend_of(xgpu::select()) == "opencl");
  CHECK(backend_of(xgpu::select("gpu")) == "opencl");
  CHECK(backend_of(xgpu::select("0")) == "opencl");
  CHECK(xgpu::select_all("gpu").size() == 1);
  CHECK(xgpu::select_all("*").size() == 1);
  check_error(capture_error([] { xgpu::select("1"); }), xgpu::Errc::no_device, {"'1'"});
  // Naming a backend still gets exactly that device.
  const xgpu::Device cuda = xgpu::select("cuda:0");
  CHECK(backend_of(cuda) == "cuda");
  CHECK(cuda.selector() == "cuda:0");
  CHECK(cuda.index() == 0);  // the number of its physical device
  CHECK(cuda.is_alias_of(devices[0]));
  CHECK(backend_of(xgpu::select("cuda:gpu:0")) == "cuda");
  CHECK(backend_of(xgpu::select("opencl:0")) == "opencl");
  CHECK(xgpu::select_all("cuda:0,opencl:0").size() == 2);

  // A group sees the GPU once; given both aliases explicitly, it refuses, naming both.
  xgpu::DeviceGroup group("gpu");
  REQUIRE(group.size() == 1);
  CHECK(backend_of(group[0].device) == "opencl");
  check_error(capture_error([&] {
                xgpu::DeviceGroup({devices[0], cuda});
              }),
              xgpu::Errc::invalid_argument, {"opencl:0", "cuda:0", kPhysicalId});
  check_error(capture_error([] { xgpu::DeviceGroup("cuda:0,opencl:0"); }),
              xgpu::Errc::invalid_argument, {"cuda:0", "opencl:0", "one physical device"});
}

TEST_CASE("XGPU_BACKEND_ORDER=cuda,opencl shows the GPU through cuda", "[.aliases_cuda_first]") {
  require_two_modules_one_gpu();
  CHECK(xgpu::backend_order() == std::vector<std::string>{"cuda", "opencl"});
  const std::vector<xgpu::Device> devices = xgpu::devices();
  REQUIRE(devices.size() == 1);
  CHECK(backend_of(devices[0]) == "cuda");
  CHECK(backend_of(xgpu::select()) == "cuda");
  CHECK(backend_of(xgpu::select("gpu")) == "cuda");
  CHECK(backend_of(xgpu::select("opencl:0")) == "opencl");
  xgpu::DeviceGroup group("*");
  REQUIRE(group.size() == 1);
  CHECK(backend_of(group[0].device) == "cuda");
}

TEST_CASE("XGPU_VISIBLE_DEVICES=0 keeps the physical device with both modules",
          "[.aliases_visible_index]") {
  require_two_modules_one_gpu();
  REQUIRE(xgpu::devices().size() == 1);
  CHECK(backend_of(xgpu::devices()[0]) == "opencl");
  CHECK(backend_of(xgpu::select("cuda:0")) == "cuda");
}

TEST_CASE("XGPU_VISIBLE_DEVICES=cuda:0 keeps only that module's device",
          "[.aliases_visible_cuda]") {
  REQUIRE(xgpu::backend_devices().size() == 1);
  const std::vector<xgpu::Device> devices = xgpu::devices();
  REQUIRE(devices.size() == 1);
  // The alias selectors without a backend see is the visible one, whatever the order says.
  CHECK(backend_of(devices[0]) == "cuda");
  CHECK(backend_of(xgpu::select("gpu")) == "cuda");
  CHECK(devices[0].aliases().empty());  // the opencl one is hidden
  CHECK(devices[0].physical_id() == kPhysicalId);
  check_error(capture_error([] { xgpu::select("opencl:0"); }), xgpu::Errc::no_device, {"opencl:0"});
}

TEST_CASE("a bad XGPU_BACKEND_ORDER is an error naming it", "[.aliases_bad_order]") {
  for (int attempt = 0; attempt < 2; ++attempt) {
    check_error(capture_error([] { xgpu::devices(); }), xgpu::Errc::invalid_argument,
                {"XGPU_BACKEND_ORDER", "cdua", "did you mean 'cuda'"});
  }
  check_error(capture_error([] { xgpu::select("cuda:0"); }), xgpu::Errc::invalid_argument,
              {"XGPU_BACKEND_ORDER"});
}
