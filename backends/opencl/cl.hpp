// The one place the module includes the OpenCL headers, so that every file agrees on the
// target version and on the extension constants it uses.
//
// We compile against the 3.0 headers but only call 1.2 entry points: Oclgrind and older
// vendor drivers are 1.2 platforms, and the ICD loader would dispatch a 2.x call into a
// table slot they never filled.
#pragma once

#define CL_TARGET_OPENCL_VERSION 300
// clCreateCommandQueue is the 1.2 way to make a queue; the 3.0 headers mark it deprecated.
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
// cl_half_from_float(): blas_gemm rounds alpha and beta to half for CLBlast's HGEMM.
#include <CL/cl_half.h>

namespace xgpu::backend_opencl {

// Extension enums, spelled out here rather than taken from cl_ext.h: the values are fixed by
// the extension specifications, and older distribution headers lack some of them.
// cl_khr_device_uuid, cl_khr_pci_bus_info.
inline constexpr cl_device_info kDeviceUuidKhr = 0x106A;
inline constexpr cl_device_info kDevicePciBusInfoKhr = 0x410F;
// cl_nv_device_attribute_query.
inline constexpr cl_device_info kDeviceComputeCapMajorNv = 0x4000;
inline constexpr cl_device_info kDeviceComputeCapMinorNv = 0x4001;
inline constexpr cl_device_info kDeviceWarpSizeNv = 0x4003;
inline constexpr cl_device_info kDevicePciBusIdNv = 0x4008;
inline constexpr cl_device_info kDevicePciSlotIdNv = 0x4009;
inline constexpr cl_device_info kDevicePciDomainIdNv = 0x400A;
// cl_amd_device_attribute_query.
inline constexpr cl_device_info kDeviceTopologyAmd = 0x4037;
inline constexpr cl_device_info kDeviceBoardNameAmd = 0x4038;
inline constexpr cl_device_info kDeviceGlobalFreeMemoryAmd = 0x4039;
inline constexpr cl_device_info kDeviceWavefrontWidthAmd = 0x4043;
// cl_intel_required_subgroup_size.
inline constexpr cl_device_info kDeviceSubGroupSizesIntel = 0x4108;
// cl_khr_icd: the loader found no platform at all.
inline constexpr cl_int kPlatformNotFoundKhr = -1001;

}  // namespace xgpu::backend_opencl
