// The device traits every part of xgpu decides by (is this a CPU, a GPU, a simulator; does
// the host share its memory; how much local memory a kernel's work-group may still take),
// each defined once in device_traits.cpp. They are public to extension libraries and tools
// as xgpu::ext (<xgpu/extension.hpp>); the core includes this header to say it uses them.
#pragma once

#include <xgpu/extension.hpp>

#include "xgpu/common/device_kind.hpp"

namespace xgpu::detail {
using ext::free_local_memory;
using ext::is_cpu;
using ext::is_gpu;
using ext::is_simulator;
using ext::shares_host_memory;

/// The device as backends/common's rules of device kinds and selector words see it.
common::DeviceKind device_kind(const DeviceInfo& info);
}  // namespace xgpu::detail
