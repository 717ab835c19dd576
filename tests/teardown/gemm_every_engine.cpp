// gemm_every_engine: every GEMM engine (vendor_blas, kernel, host_blas) on every device, once,
// checked against a host reference; exits 0 only when every product was right AND the process
// then ends cleanly. Run twice with the same fresh XGPU_CACHE_DIR (cold, then warm) by
// run_cold_warm.sh: the second run loads kernels from the cache.
//
// Why a program of its own: the failure it guards against happens after main() returns.
// CLBlast keeps its compiled programs in process-wide caches that its own static destructors
// release at exit; when they ran after the OpenCL objects they belong to were gone, glibc
// aborted with "corrupted double-linked list" although every result had been printed right.
// A Catch2 test cannot see that; the exit status of a whole process can.
//
// Usage: xgpu-gemm-every-engine [--hold] [SIZE]
//   SIZE: m = SIZE, n = SIZE + 1, k = SIZE + 2; default 17, small because Oclgrind interprets
//   CLBlast's kernels.
//   --hold: the contexts and queues stay alive until static destruction, after main()
//   returns, as in a program that keeps them in globals; without it each is released when
//   its device is done, as in a program that scopes them.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>
#include <xgpu/algorithms.hpp>
#include <xgpu/xgpu.hpp>

namespace {

// --hold keeps every queue (and through it its context) here until exit.
std::vector<xgpu::Queue> held_until_exit;

// Row-major C = A * B in double, the independent reference.
std::vector<double> reference(const std::vector<float>& a, const std::vector<float>& b,
                              std::size_t m, std::size_t n, std::size_t k) {
  std::vector<double> c(m * n, 0.0);
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t p = 0; p < k; ++p)
      for (std::size_t j = 0; j < n; ++j) c[i * n + j] += double(a[i * k + p]) * b[p * n + j];
  return c;
}

// Inputs in [-1, 1): every |a_ip * b_pj| <= 1, so k + 3 float epsilons per unit of k bound
// the error of any summation order (as the library's own gemm test).
std::vector<float> inputs(std::size_t count, unsigned seed) {
  std::vector<float> values(count);
  unsigned state = seed;
  for (float& value : values) {
    state = state * 1664525u + 1013904223u;
    value = static_cast<float>(state >> 8) / float(1u << 23) - 1.0f;
  }
  return values;
}

// One engine on one device; returns false (and says why) on a wrong result. Counts the
// vendor_blas runs in `clblast_runs`.
bool run_engine(xgpu::Queue& queue, xgpu::GemmEngine engine, std::size_t size,
                std::size_t& clblast_runs) {
  const std::string where = queue.device().describe() + " " + xgpu::to_string(engine);
  std::string why;
  if (!xgpu::gemm_engine_available<float>(queue, engine, &why)) {
    std::printf("skip  %s: %s\n", where.c_str(), why.c_str());
    return true;
  }
  const std::size_t m = size, n = size + 1, k = size + 2;
  const std::vector<float> a = inputs(m * k, 1), b = inputs(k * n, 2);
  xgpu::Context context = queue.context();
  auto da = context.alloc<float>(a.size()), db = context.alloc<float>(b.size()),
       dc = context.alloc<float>(m * n);
  queue.write(da, a.data());
  queue.write(db, b.data());
  xgpu::gemm<float>(queue, m, n, k, 1.0f, da, db, 0.0f, dc, xgpu::Transpose::no,
                    xgpu::Transpose::no, engine);
  std::vector<float> c(m * n);
  queue.read(dc, c.data());
  queue.finish();
  const std::vector<double> expected = reference(a, b, m, n, k);
  const double bound = (k + 3) * double(k) * 1.1920929e-7;
  for (std::size_t i = 0; i < c.size(); ++i) {
    if (!(std::fabs(c[i] - expected[i]) <= bound)) {
      std::printf("WRONG %s: C[%zu] = %.9g, expected %.9g\n", where.c_str(), i, c[i], expected[i]);
      return false;
    }
  }
  if (engine == xgpu::GemmEngine::vendor_blas) ++clblast_runs;
  std::printf("ok    %s %zux%zux%zu\n", where.c_str(), m, n, k);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  bool hold = false;
  std::size_t size = 17;
  for (int i = 1; i < argc; ++i) {
    const std::string argument = argv[i];
    if (argument == "--hold") {
      hold = true;
      continue;
    }
    size = std::strtoul(argv[i], nullptr, 10);
    if (size == 0) {
      std::fprintf(stderr, "gemm_every_engine: expected --hold or a positive SIZE, got '%s'\n",
                   argv[i]);
      return 2;
    }
  }
  bool all_right = true;
  std::size_t devices = 0, clblast_runs = 0;
  try {
    for (const xgpu::Device& device : xgpu::devices()) {
      ++devices;
      xgpu::Context context(device);
      xgpu::Queue queue = context.queue();
      for (xgpu::GemmEngine engine :
           {xgpu::GemmEngine::vendor_blas, xgpu::GemmEngine::kernel, xgpu::GemmEngine::host_blas}) {
        all_right = run_engine(queue, engine, size, clblast_runs) && all_right;
      }
      if (hold) held_until_exit.push_back(queue);
    }
  } catch (const std::exception& error) {
    std::fprintf(stderr, "gemm_every_engine: %s\n", error.what());
    return 1;
  }
  if (devices == 0) {
    std::fprintf(stderr, "gemm_every_engine: no device found\n");
    return 1;
  }
  // CLBlast's caches are what this program guards: a run where it ran nowhere proves nothing.
  if (clblast_runs == 0) {
    std::fprintf(stderr, "gemm_every_engine: vendor_blas (CLBlast) ran on no device\n");
    return 1;
  }
  std::printf("%s on %zu device(s)\n", all_right ? "all right" : "SOME WRONG", devices);
  std::fflush(stdout);
  return all_right ? 0 : 1;
}
