// The library suite: xgpu's own kernels (kernels/*.cl, embedded in the library) against host
// references: the element-wise kernels exactly, SGEMM within a rounding bound at sizes that
// are not multiples of its tile, and beta == 0 never reading C.
#include <cfloat>
#include <cmath>
#include <random>
#include <vector>

#include "check.hpp"

namespace xgpu::conform {
namespace {

Program library(Env& env, const char* name) {
  const Source source = kernels::source(name);
  return env.program(source.name, source.text);
}

// Inputs in [-4.0f, 4.0f).
std::vector<float> random_floats(std::size_t n, std::uint32_t seed) {
  return conform::random_floats(n, seed, -4.0f, 4.0f);
}

Result elementwise(Env& env) {
  const std::size_t n = env.size(3000, 200) + 5, padded = (n + 63) / 64 * 64;
  const unsigned count = static_cast<unsigned>(n);
  const std::vector<float> x = random_floats(n, 1), y = random_floats(n, 2);
  Program program = library(env, "elementwise.cl");
  Buffer<float> dx = env.context().alloc<float>(n), dy = env.context().alloc<float>(n);
  env.queue().write(dx, x);
  env.queue().write(dy, y);
  env.queue().launch(program.kernel("xgpu_axpy_f32"), Range{padded}, count, 1.75f, dx, dy);
  std::vector<float> got = env.queue().read(dy);
  for (std::size_t i = 0; i < n; ++i) {
    const float expected = std::fma(1.75f, x[i], y[i]);  // fma is correctly rounded
    if (got[i] != expected)
      return fail_expected("xgpu_axpy_f32 y[" + std::to_string(i) + "]", expected, got[i]);
  }
  env.queue().launch(program.kernel("xgpu_scale_f32"), Range{padded}, count, -0.5f, dx);
  got = env.queue().read(dx);
  for (std::size_t i = 0; i < n; ++i) {
    if (got[i] != x[i] * -0.5f)
      return fail_expected("xgpu_scale_f32 x[" + std::to_string(i) + "]", x[i] * -0.5f, got[i]);
  }
  env.queue().launch(program.kernel("xgpu_fill_f32"), Range{padded}, count - 1, 9.0f, dx);
  got = env.queue().read(dx);
  if (got[0] != 9.0f || got[n - 2] != 9.0f || got[n - 1] != x[n - 1] * -0.5f)
    return fail_expected("xgpu_fill_f32 of n-1 elements: x[0], x[n-2], x[n-1]",
                         "9 9 " + std::to_string(x[n - 1] * -0.5f),
                         std::to_string(got[0]) + " " + std::to_string(got[n - 2]) + " " +
                             std::to_string(got[n - 1]));
  return pass();
}

Result sgemm_case(Env& env, unsigned m, unsigned n, unsigned k, float alpha, float beta) {
  const std::vector<float> a = random_floats(std::size_t{m} * k, m),
                           b = random_floats(std::size_t{k} * n, n);
  std::vector<float> c = random_floats(std::size_t{m} * n, k);
  if (beta == 0) c.assign(c.size(), NAN);  // must not be read
  Buffer<float> da = env.context().alloc<float>(a.size()),
                db = env.context().alloc<float>(b.size()),
                dc = env.context().alloc<float>(c.size());
  env.queue().write(da, a);
  env.queue().write(db, b);
  env.queue().write(dc, c);
  // gemm.cl built without options: float, 16 x 16 items of 4 x 4 elements, 64 x 64 tiles.
  const std::size_t items = 16, tile = 64;
  const Range global{(n + tile - 1) / tile * items, (m + tile - 1) / tile * items};
  env.queue().launch(library(env, "gemm.cl").kernel("xgpu_gemm"), global, Range{items, items}, m, n,
                     k, alpha, da, k, db, n, beta, dc, n);
  const std::vector<float> got = env.queue().read(dc);
  for (unsigned i = 0; i < m; ++i) {
    for (unsigned j = 0; j < n; ++j) {
      double sum = 0, magnitude = 0;
      for (unsigned p = 0; p < k; ++p) {
        sum += double(a[i * k + p]) * b[p * n + j];
        magnitude += std::fabs(double(a[i * k + p]) * b[p * n + j]);
      }
      const double old = beta == 0 ? 0 : c[i * n + j];
      const double expected = alpha * sum + beta * old;
      const double bound =
          (k + 3) * FLT_EPSILON * (std::fabs(alpha) * magnitude + std::fabs(beta * old));
      if (!(std::fabs(got[i * n + j] - expected) <= bound))
        return fail_expected("xgpu_gemm " + std::to_string(m) + "x" + std::to_string(n) + "x" +
                                 std::to_string(k) + " beta " + std::to_string(beta) + " C[" +
                                 std::to_string(i) + "][" + std::to_string(j) + "] (bound " +
                                 std::to_string(bound) + ")",
                             expected, got[i * n + j]);
    }
  }
  return pass();
}

Result sgemm(Env& env) {
  if (env.info().max_work_group_size < 256)
    return skip("xgpu_gemm as built by default needs work-groups of 256 items, the device allows " +
                std::to_string(env.info().max_work_group_size));
  Result result = sgemm_case(env, 37, 29, env.quick() ? 19 : 41, 1.5f, -0.75f);
  if (result.outcome != Outcome::pass) return result;
  return sgemm_case(env, 16, env.quick() ? 20 : 48, 16, 2.0f, 0.0f);
}

}  // namespace

void register_library(Registry& registry) {
  registry.add("library", "elementwise_kernels", "", elementwise);
  registry.add("library", "sgemm", "", sgemm);
}

}  // namespace xgpu::conform
