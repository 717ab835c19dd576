// The whole public API of xgpu: include this one header.
#pragma once

#include <xgpu/buffer.hpp>
#include <xgpu/cache.hpp>
#include <xgpu/context.hpp>
#include <xgpu/device.hpp>
#include <xgpu/error.hpp>
#include <xgpu/event.hpp>
#include <xgpu/half.hpp>
#include <xgpu/interop.hpp>
#include <xgpu/kernels.hpp>
#include <xgpu/log.hpp>
#include <xgpu/program.hpp>
#include <xgpu/queue.hpp>
#include <xgpu/range.hpp>
#include <xgpu/version.hpp>
