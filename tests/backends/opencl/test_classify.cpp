// Vendor classification of the OpenCL module (backends/opencl/classify.cpp), compiled into
// the tests directly: identities of devices this machine does not have, as drivers report them.
#include <catch2/catch.hpp>

#include "classify.hpp"
#include "xgpu/backend.h"

using xgpu::backend_opencl::classify_device;
using xgpu::backend_opencl::DeviceIdentity;

namespace {
DeviceIdentity identity(std::string platform_name, std::string platform_vendor,
                        std::string device_name, std::string device_vendor, uint64_t vendor_id,
                        uint32_t type_bits) {
  DeviceIdentity id;
  id.platform_name = std::move(platform_name);
  id.platform_vendor = std::move(platform_vendor);
  id.device_name = std::move(device_name);
  id.device_vendor = std::move(device_vendor);
  id.vendor_id = vendor_id;
  id.type_bits = type_bits;
  return id;
}
}  // namespace

TEST_CASE("PoCL on an AMD CPU is AMD hardware whatever its vendor id", "[classify]") {
  // PoCL reports Intel's PCI id 0x8086 for every CPU.
  const auto result = classify_device(identity("Portable Computing Language", "The pocl project",
                                               "pthread-znver3-AMD EPYC 7B12", "AuthenticAMD",
                                               0x8086, XGPU_TYPE_CPU));
  CHECK(result.hardware_vendor == "amd");
  CHECK(result.implementation == "pocl");
  // So a selector "intel" (hardware or driver maker) cannot pick it.
  CHECK(result.hardware_vendor != "intel");
  CHECK(result.implementation != "intel");

  // Same, when the device vendor string is unhelpful.
  const auto bare =
      classify_device(identity("Portable Computing Language", "The pocl project",
                               "cpu-znver3-AMD EPYC 7B12", "", 0x8086, XGPU_TYPE_CPU));
  CHECK(bare.hardware_vendor == "amd");
}

TEST_CASE("PoCL on an Intel CPU is Intel hardware", "[classify]") {
  const auto result = classify_device(identity("Portable Computing Language", "The pocl project",
                                               "pthread-skylake-avx512-Intel(R) Xeon(R) Processor",
                                               "GenuineIntel", 0x8086, XGPU_TYPE_CPU));
  CHECK(result.hardware_vendor == "intel");
  CHECK(result.implementation == "pocl");
}

TEST_CASE("vendor GPU drivers classify by vendor id", "[classify]") {
  struct Case {
    DeviceIdentity id;
    const char* vendor;  // hardware_vendor and implementation alike
  };
  const Case cases[] = {
      {identity("NVIDIA CUDA", "NVIDIA Corporation", "NVIDIA GeForce RTX 4090",
                "NVIDIA Corporation", 0x10DE, XGPU_TYPE_GPU),
       "nvidia"},
      {identity("AMD Accelerated Parallel Processing", "Advanced Micro Devices, Inc.", "gfx1100",
                "Advanced Micro Devices, Inc.", 0x1002, XGPU_TYPE_GPU),
       "amd"},
      {identity("Intel(R) OpenCL Graphics", "Intel(R) Corporation",
                "Intel(R) Arc(TM) A770 Graphics", "Intel(R) Corporation", 0x8086, XGPU_TYPE_GPU),
       "intel"},
      // Intel's own CPU runtime on an Intel CPU.
      {identity("Intel(R) OpenCL", "Intel(R) Corporation",
                "Intel(R) Core(TM) i7-8700 CPU @ 3.20GHz", "Intel(R) Corporation", 0x8086,
                XGPU_TYPE_CPU),
       "intel"},
  };
  for (const Case& c : cases) {
    INFO(c.id.platform_name << ": " << c.id.device_name);
    const auto result = classify_device(c.id);
    CHECK(result.hardware_vendor == c.vendor);
    CHECK(result.implementation == c.vendor);
  }
}

TEST_CASE("Mesa's drivers run on other vendors' GPUs", "[classify]") {
  const auto rusticl =
      classify_device(identity("rusticl", "Mesa/X.org", "AMD Radeon RX 6800 (radeonsi, navi21)",
                               "AMD", 0x1002, XGPU_TYPE_GPU));
  CHECK(rusticl.hardware_vendor == "amd");
  CHECK(rusticl.implementation == "mesa");
}

TEST_CASE("Oclgrind is a simulator", "[classify]") {
  const auto result = classify_device(
      identity("Oclgrind", "University of Bristol", "Oclgrind Simulator", "University of Bristol",
               0x42, XGPU_TYPE_CPU | XGPU_TYPE_GPU | XGPU_TYPE_ACCELERATOR));
  CHECK(result.hardware_vendor == "simulator");
  CHECK(result.implementation == "oclgrind");
}

TEST_CASE("an identity nobody recognises is unknown and not a guess", "[classify]") {
  const auto result =
      classify_device(identity("Foo CL", "Foo Inc.", "Foo-1", "Foo Inc.", 0x1234, XGPU_TYPE_GPU));
  CHECK(result.hardware_vendor == "unknown");
  CHECK(result.implementation == "unknown");
  // A vendor name glued inside another word is not a match.
  const auto glued = classify_device(
      identity("Foo CL", "Foo Inc.", "TRAMDRIVE accelerator", "", 0, XGPU_TYPE_ACCELERATOR));
  CHECK(glued.hardware_vendor == "unknown");
}
