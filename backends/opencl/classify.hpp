// Who made a device's silicon and who wrote its driver, from what the driver reports.
//
// Pure C++ with no OpenCL dependency: the core's unit tests compile classify.cpp directly.
// This is the only place the module decides a vendor; the per-vendor files (vendor_*.cpp)
// are reached through its answer, never through string tests of their own.
//
// Rules, in order:
//   implementation (the driver's maker) comes from the platform name and vendor:
//     "Portable Computing Language" / "pocl" -> pocl, "Oclgrind" -> oclgrind,
//     rusticl / Clover / Mesa -> mesa, then NVIDIA, AMD ("Advanced Micro Devices"),
//     Intel, Apple, ARM, Qualcomm, Imagination, Microsoft (CLon12), Xilinx; else "unknown".
//     Mesa and PoCL are matched first because they run on other vendors' hardware.
//   hardware_vendor (the silicon's maker):
//     1. a simulator implementation (Oclgrind: vendor id 0x42, every type bit set)
//        -> "simulator";
//     2. a CPU device -> from the device name, then the device vendor string
//        ("pthread-znver3-AMD EPYC 7B12" -> amd, "GenuineIntel" -> intel); the vendor id
//        is not trusted, since PoCL reports 0x8086 (and 0x8087 for a second device) for any
//        CPU and old AMD CPU runtimes reported 0x1002 for Intel CPUs too; else "unknown";
//     3. any other device -> from the PCI vendor id (0x10DE nvidia, 0x1002/0x1022 amd,
//        0x8086 intel, 0x13B5 arm, 0x5143 qualcomm, 0x106B apple, 0x1010 imagination,
//        0x10EE xilinx), else from the device name and vendor strings (Apple reports
//        made-up ids such as 0x1027F00), else "unknown".
//   Device name and vendor matches are case-sensitive whole words ("AMD" matches
//   "-AMD EPYC" but not "XAMDY"), so a model string cannot match by accident.
#pragma once

#include <cstdint>
#include <string>

namespace xgpu::backend_opencl {

/// What the driver says about a device; type_bits are XGPU_TYPE_* bits.
struct DeviceIdentity {
  std::string platform_name;
  std::string platform_vendor;
  std::string device_name;
  std::string device_vendor;
  uint64_t vendor_id = 0;
  uint32_t type_bits = 0;
};

/// Lower-case vendor keys, as used in device selectors ("nvidia", "pocl", ...).
struct Classification {
  std::string hardware_vendor;
  std::string implementation;
};

Classification classify_device(const DeviceIdentity& identity);

}  // namespace xgpu::backend_opencl
