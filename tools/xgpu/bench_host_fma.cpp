// Host fma chains for the compute suite. Eight independent accumulators per thread cover the
// latency of the fma units; the values converge (x = x * 0.999 + 0.001), so no infinities or
// denormals slow either side. Written with intrinsics: the build targets baseline x86-64,
// and a plain x * m + c is not contracted into an fma under -std=c++17.
#include "bench_host_fma.hpp"

#include <cmath>
#include <string_view>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define XGPU_BENCH_X86 1
#endif

namespace xgpu::cli::bench {
namespace {

constexpr int kChains = 8;

#ifdef XGPU_BENCH_X86
// One function per vector type: V the vector, S its scalar, N its lanes.
#define XGPU_FMA_LOOP(name, isa, V, S, N, set1, fmadd, store)                     \
  __attribute__((target(isa))) S name(std::uint64_t flops, std::uint64_t* done) { \
    const std::uint64_t per_iteration = kChains * N * 2;                          \
    const std::uint64_t iterations = flops / per_iteration + 1;                   \
    V m = set1(S(0.999)), c = set1(S(0.001));                                     \
    V x0 = set1(S(0)), x1 = set1(S(1)), x2 = set1(S(2)), x3 = set1(S(3));         \
    V x4 = set1(S(4)), x5 = set1(S(5)), x6 = set1(S(6)), x7 = set1(S(7));         \
    for (std::uint64_t i = 0; i < iterations; ++i) {                              \
      x0 = fmadd(x0, m, c), x1 = fmadd(x1, m, c), x2 = fmadd(x2, m, c);           \
      x3 = fmadd(x3, m, c), x4 = fmadd(x4, m, c), x5 = fmadd(x5, m, c);           \
      x6 = fmadd(x6, m, c), x7 = fmadd(x7, m, c);                                 \
    }                                                                             \
    *done = iterations * per_iteration;                                           \
    S sum = 0, lanes[N];                                                          \
    for (V v : {x0, x1, x2, x3, x4, x5, x6, x7}) {                                \
      store(lanes, v);                                                            \
      for (int l = 0; l < N; ++l) sum += lanes[l];                                \
    }                                                                             \
    return sum;                                                                   \
  }
XGPU_FMA_LOOP(float_avx512, "avx512f", __m512, float, 16, _mm512_set1_ps, _mm512_fmadd_ps,
              _mm512_storeu_ps)
XGPU_FMA_LOOP(double_avx512, "avx512f", __m512d, double, 8, _mm512_set1_pd, _mm512_fmadd_pd,
              _mm512_storeu_pd)
XGPU_FMA_LOOP(float_avx2, "avx2,fma", __m256, float, 8, _mm256_set1_ps, _mm256_fmadd_ps,
              _mm256_storeu_ps)
XGPU_FMA_LOOP(double_avx2, "avx2,fma", __m256d, double, 4, _mm256_set1_pd, _mm256_fmadd_pd,
              _mm256_storeu_pd)
#undef XGPU_FMA_LOOP
#endif

template <class S>
S scalar(std::uint64_t flops, std::uint64_t* done) {
  const std::uint64_t iterations = flops / (kChains * 2) + 1;
  S x[kChains];
  for (int k = 0; k < kChains; ++k) x[k] = S(k);
  for (std::uint64_t i = 0; i < iterations; ++i) {
    for (int k = 0; k < kChains; ++k) x[k] = std::fma(x[k], S(0.999), S(0.001));
  }
  *done = iterations * kChains * 2;
  S sum = 0;
  for (S v : x) sum += v;
  return sum;
}

}  // namespace

const char* host_fma_kind() {
#ifdef XGPU_BENCH_X86
  if (__builtin_cpu_supports("avx512f")) return "avx512";
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return "avx2";
#endif
  return "scalar";
}

float host_fma_float(std::uint64_t flops, std::uint64_t* done) {
#ifdef XGPU_BENCH_X86
  const std::string_view kind = host_fma_kind();
  if (kind == "avx512") return float_avx512(flops, done);
  if (kind == "avx2") return float_avx2(flops, done);
#endif
  return scalar<float>(flops, done);
}

double host_fma_double(std::uint64_t flops, std::uint64_t* done) {
#ifdef XGPU_BENCH_X86
  const std::string_view kind = host_fma_kind();
  if (kind == "avx512") return double_avx512(flops, done);
  if (kind == "avx2") return double_avx2(flops, done);
#endif
  return scalar<double>(flops, done);
}

}  // namespace xgpu::cli::bench
