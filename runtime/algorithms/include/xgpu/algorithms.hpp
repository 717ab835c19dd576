// The algorithms library: typed operations on xgpu::Buffers, enqueued on an xgpu::Queue.
// Each runs xgpu's own kernels (kernels/*.cl, built once per context through the kernel
// cache) or, for GEMM, the fastest measured implementation for the device. Also the mixed
// precision helpers built on them (xgpu::cast, xgpu::LossScaler), and xgpu::Feeder, which keeps
// a compute queue fed with input batches.
#pragma once

#include <xgpu/algorithms/cast.hpp>
#include <xgpu/algorithms/elementwise.hpp>
#include <xgpu/algorithms/gemm.hpp>
#include <xgpu/algorithms/reduce.hpp>
#include <xgpu/algorithms/scan.hpp>
#include <xgpu/algorithms/softmax.hpp>
#include <xgpu/algorithms/sort.hpp>
#include <xgpu/algorithms/transpose.hpp>
#include <xgpu/algorithms/types.hpp>
#include <xgpu/feeder.hpp>
#include <xgpu/loss_scaler.hpp>
