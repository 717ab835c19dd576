// The SGEMM that the cache suite's child processes run, shared by the xgpu side
// (bench_cache.cpp) and the raw OpenCL side (bench_cache_raw.cpp), so that both build the
// same file, launch the same shape on the same inputs and check the same answer.
#pragma once

#include <cmath>
#include <cstddef>
#include <vector>

namespace xgpu::cli::sgemm_case {

/// C = A B with square n x n matrices, n = kSize.
constexpr std::size_t kSize = 64;
/// gemm.cl's portable shape (its defaults): 16 x 16 items, each 4 x 4 elements of C.
constexpr std::size_t kLocal = 16;
constexpr std::size_t kGlobal = (kSize + 63) / 64 * kLocal;

inline void fill_inputs(std::vector<float>& a, std::vector<float>& b) {
  a.assign(kSize * kSize, 0.0f);
  b.assign(kSize * kSize, 0.0f);
  for (std::size_t i = 0; i < kSize * kSize; ++i) {
    a[i] = static_cast<float>(i % 7) - 3.0f;
    b[i] = static_cast<float>(i % 5) - 2.0f;
  }
}

/// Whether c is A B (small integers: exact up to rounding of the sums).
inline bool product_matches(const std::vector<float>& a, const std::vector<float>& b,
                            const std::vector<float>& c) {
  const std::size_t n = kSize;
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      float expected = 0;
      for (std::size_t k = 0; k < n; ++k) expected += a[i * n + k] * b[k * n + j];
      if (std::fabs(expected - c[i * n + j]) > 1e-3f) return false;
    }
  }
  return true;
}

}  // namespace xgpu::cli::sgemm_case
