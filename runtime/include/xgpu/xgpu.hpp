// The whole public API of xgpu: include this one header. The algorithms library has its own,
// <xgpu/algorithms.hpp> (its names, xgpu::sort, xgpu::exp, ..., would hide the standard ones
// inside namespace xgpu); the interop headers xgpu/opencl.hpp and xgpu/boost_compute.hpp need
// the OpenCL and Boost.Compute headers.
#pragma once

#include <xgpu/bfloat16.hpp>
#include <xgpu/buffer.hpp>
#include <xgpu/byte_size.hpp>
#include <xgpu/cache.hpp>
#include <xgpu/context.hpp>
#include <xgpu/device.hpp>
#include <xgpu/error.hpp>
#include <xgpu/event.hpp>
#include <xgpu/half.hpp>
#include <xgpu/host_buffer.hpp>
#include <xgpu/interop.hpp>
#include <xgpu/kernels.hpp>
#include <xgpu/log.hpp>
#include <xgpu/memory.hpp>
#include <xgpu/profile.hpp>
#include <xgpu/program.hpp>
#include <xgpu/queue.hpp>
#include <xgpu/range.hpp>
#include <xgpu/settings.hpp>
#include <xgpu/trace.hpp>
#include <xgpu/version.hpp>
