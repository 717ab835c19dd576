// The host side of the compute suite: chains of fused multiply-add on every core, with the
// widest vectors this CPU has (chosen at run time), so that a CPU device's peak is compared
// with what the same cores do without OpenCL.
#pragma once

#include <cstdint>

namespace xgpu::cli::bench {

/// Runs about `flops` float (or double) operations as fma chains on one thread; returns a
/// sum of the results so that the work cannot be dropped. *done gets the flops done.
float host_fma_float(std::uint64_t flops, std::uint64_t* done);
double host_fma_double(std::uint64_t flops, std::uint64_t* done);
/// "avx512", "avx2" or "scalar": the instructions the two functions above use here.
const char* host_fma_kind();

}  // namespace xgpu::cli::bench
