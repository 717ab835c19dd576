// The library suite's GEMM checks: xgpu::gemm<float> with the engine chosen for the device
// and with xgpu's own kernel, at small sizes that are not multiples of the kernel's tiles,
// transposed and not, against a double host reference within the stated bound
// (k + 3) * eps * (|alpha| * sum |a b| + |beta c|); beta == 0 over NaNs in C.
#include <cfloat>
#include <cmath>
#include <random>
#include <string>
#include <vector>
#include <xgpu/algorithms.hpp>

#include "check.hpp"

namespace xgpu::conform {
namespace {

// Inputs in [-2.0f, 2.0f).
std::vector<float> random_floats(std::size_t n, std::uint32_t seed) {
  return conform::random_floats(n, seed, -2.0f, 2.0f);
}

struct GemmCase {
  std::size_t m, n, k;
  float alpha, beta;
  Transpose ta, tb;
};

Result gemm_case(Env& env, const GemmCase& g, GemmEngine engine) {
  const bool ta = g.ta == Transpose::yes, tb = g.tb == Transpose::yes;
  const std::vector<float> a = random_floats(g.m * g.k, 5), b = random_floats(g.k * g.n, 6);
  std::vector<float> c = random_floats(g.m * g.n, 7);
  if (g.beta == 0) c.assign(c.size(), NAN);  // must not be read
  Context& context = env.context();
  Queue& queue = env.queue();
  Buffer<float> da = context.alloc<float>(a.size()), db = context.alloc<float>(b.size()),
                dc = context.alloc<float>(c.size());
  queue.write(da, a);
  queue.write(db, b);
  queue.write(dc, c);
  xgpu::gemm<float>(queue, g.m, g.n, g.k, g.alpha, da, db, g.beta, dc, g.ta, g.tb, engine);
  const std::vector<float> got = queue.read(dc);
  for (std::size_t i = 0; i < g.m; ++i) {
    for (std::size_t j = 0; j < g.n; ++j) {
      double sum = 0, magnitude = 0;
      for (std::size_t p = 0; p < g.k; ++p) {
        const double x = a[ta ? p * g.m + i : i * g.k + p], y = b[tb ? j * g.k + p : p * g.n + j];
        sum += x * y;
        magnitude += std::fabs(x * y);
      }
      const double old = g.beta == 0 ? 0 : c[i * g.n + j];
      const double expected = g.alpha * sum + g.beta * old;
      const double bound =
          (g.k + 3) * FLT_EPSILON * (std::fabs(g.alpha) * magnitude + std::fabs(g.beta * old));
      if (!(std::fabs(got[i * g.n + j] - expected) <= bound)) {
        return fail_expected(
            std::string("xgpu::gemm (") + to_string(engine) + ") " + std::to_string(g.m) + "x" +
                std::to_string(g.n) + "x" + std::to_string(g.k) + (ta ? " A^T" : "") +
                (tb ? " B^T" : "") + " beta " + std::to_string(g.beta) + " C[" + std::to_string(i) +
                "][" + std::to_string(j) + "] (bound " + std::to_string(bound) + ")",
            expected, got[i * g.n + j]);
      }
    }
  }
  return pass();
}

Result gemm_cases(Env& env, GemmEngine engine) {
  const std::size_t k = env.size(41, 19);
  const GemmCase cases[] = {
      {37, 29, k, 1.5f, -0.75f, Transpose::no, Transpose::no},
      {16, env.size(48, 20), 16, 2.0f, 0.0f, Transpose::no, Transpose::no},
      {23, 17, k, -1.0f, 0.5f, Transpose::yes, Transpose::yes},
  };
  for (const GemmCase& g : cases) {
    Result result = gemm_case(env, g, engine);
    if (result.outcome != Outcome::pass) return result;
  }
  return pass();
}

// The engine the device gets without asking: a vendor or host BLAS, or the kernel.
Result gemm_automatic(Env& env) { return gemm_cases(env, GemmEngine::automatic); }

// xgpu's own kernel, whatever the automatic choice.
Result gemm_kernel(Env& env) { return gemm_cases(env, GemmEngine::kernel); }

}  // namespace

void register_library_gemm(Registry& registry) {
  registry.add("library", "gemm_automatic", "", gemm_automatic);
  registry.add("library", "gemm_kernel", "", gemm_kernel);
}

}  // namespace xgpu::conform
