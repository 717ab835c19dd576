// The mixed-precision figures of `xgpu bench library`: xgpu::cast's bandwidth against the
// triad kernel's (STREAM's a = b + s c over floats) in the same run, and the GEMM of half
// inputs into float C against the float GEMM on the same engine (the kernel, and the engine
// the automatic choice takes). Every result is checked, so a fast wrong answer cannot pass.
#include <cmath>
#include <string>
#include <xgpu/algorithms.hpp>
#include <xgpu/xgpu.hpp>

#include "bench_util.hpp"

namespace xgpu::cli {
namespace {

constexpr const char* kSuite = "library";

using bench::milliseconds;

double gb_per_s(double bytes, double ms) { return bytes / (ms * 1e-3) / 1e9; }

/// One cast to time: its name, the bytes it moves per element, and the run.
struct CastCase {
  std::string name;
  double bytes_per_element;
  std::function<void()> run;
  Samples samples;
};

void casts(Context& context, Queue& queue, std::size_t n, int reps, std::vector<Figure>& figures) {
  const std::vector<float> host = bench::random_floats(n, -1000, 1000, 11);
  auto floats = context.alloc<float>(n), back = context.alloc<float>(n);
  auto halves = context.alloc<half>(n);
  auto bfloats = context.alloc<bfloat16>(n);
  queue.write(floats, host);
  std::vector<CastCase> cases;
  cases.push_back({"float -> half", 6, [&] { cast(queue, floats, halves); }, {}});
  cases.push_back({"half -> float", 6, [&] { cast(queue, halves, back); }, {}});
  cases.push_back({"float -> bfloat16", 6, [&] { cast(queue, floats, bfloats); }, {}});
  cases.push_back({"bfloat16 -> float", 6, [&] { cast(queue, bfloats, back); }, {}});
  const Kernel triad = bench::triad_kernel(context);
  auto a = context.alloc<float>(n), b = context.alloc<float>(n), c = context.alloc<float>(n);
  queue.fill(b, 1.0f);
  queue.fill(c, 2.0f);
  auto run_triad = [&] { queue.launch(triad, Range{n}, a, b, c, 3.0f); };
  for (CastCase& one : cases) one.run();
  run_triad();
  bench::settle(queue);
  Samples triad_samples;
  for (int r = 0; r < reps; ++r) {
    triad_samples.values.push_back(gb_per_s(12.0 * n, milliseconds([&] {
                                              run_triad();
                                              queue.finish();
                                            })));
    for (CastCase& one : cases)
      one.samples.values.push_back(gb_per_s(one.bytes_per_element * n, milliseconds([&] {
                                              one.run();
                                              queue.finish();
                                            })));
  }
  // The last casts were bfloat16 -> float of float -> bfloat16: each within half a unit of
  // bfloat16's 8 significant bits (2^-8 relative) of its source; the triad gave 7.
  const std::vector<float> got = queue.read(back);
  for (std::size_t i : {std::size_t{0}, n / 2, n - 1}) {
    if (!(std::fabs(got[i] - host[i]) <= std::ldexp(std::fabs(host[i]), -8)))
      bench::wrong(kSuite, "cast round trip through bfloat16 gave " + std::to_string(got[i]) +
                               " for " + std::to_string(host[i]));
  }
  if (queue.read(a)[n / 2] != 7.0f) bench::wrong(kSuite, "the triad kernel gave a wrong result");
  const std::string size = bench::count_text(n) + " elements";
  Figure baseline = bench::make_figure(
      kSuite, "triad kernel (casts' baseline), 3 x " + bench::count_text(n) + " floats", "GB/s",
      triad_samples);
  figures.push_back(baseline);
  for (CastCase& one : cases) {
    Figure figure =
        bench::make_figure(kSuite, "xgpu::cast " + one.name + ", " + size, "GB/s", one.samples);
    bench::compare_with(figure, baseline, 0.8, false);
    figure.note = "target: >= 0.8x the triad's bandwidth (6 bytes moved per element)";
    figures.push_back(figure);
  }
}

/// gemm<half, float> against gemm<float> of the same (widened) inputs, on one engine.
void mixed_gemm(Context& context, Queue& queue, std::size_t n, GemmEngine engine, int reps,
                std::vector<Figure>& figures) {
  const std::vector<float> a = bench::random_floats(n * n, -1, 1, 21),
                           b = bench::random_floats(n * n, -1, 1, 22);
  std::vector<half> ha(a.size()), hb(b.size());
  std::vector<float> wa(a.size()), wb(b.size());  // the halves, widened
  for (std::size_t i = 0; i < a.size(); ++i) wa[i] = to_float(ha[i] = to_half(a[i]));
  for (std::size_t i = 0; i < b.size(); ++i) wb[i] = to_float(hb[i] = to_half(b[i]));
  auto dha = context.alloc<half>(ha.size()), dhb = context.alloc<half>(hb.size());
  auto dfa = context.alloc<float>(wa.size()), dfb = context.alloc<float>(wb.size());
  auto c_mixed = context.alloc<float>(n * n), c_float = context.alloc<float>(n * n);
  queue.write(dha, ha);
  queue.write(dhb, hb);
  queue.write(dfa, wa);
  queue.write(dfb, wb);
  const double flops = 2.0 * n * n * n;
  auto gflops = [&](double ms) { return flops / (ms * 1e-3) / 1e9; };
  auto run_mixed = [&] {
    gemm<half, float>(queue, n, n, n, 1.0f, dha, dhb, 0.0f, c_mixed, Transpose::no, Transpose::no,
                      engine);
    queue.finish();
  };
  auto run_float = [&] {
    gemm<float>(queue, n, n, n, 1.0f, dfa, dfb, 0.0f, c_float, Transpose::no, Transpose::no,
                engine);
    queue.finish();
  };
  run_mixed();
  run_float();
  bench::settle(queue);
  Samples s_mixed, s_float;
  for (int r = 0; r < reps; ++r) {  // taking turns at going first
    if (r % 2 == 0) s_mixed.values.push_back(gflops(milliseconds(run_mixed)));
    s_float.values.push_back(gflops(milliseconds(run_float)));
    if (r % 2 == 1) s_mixed.values.push_back(gflops(milliseconds(run_mixed)));
  }
  // The two products are the same float arithmetic on the same values: within the GEMM
  // bound of each other, (n + 3) 2^-23 sum |a b| (sampled elements).
  const std::vector<float> got = queue.read(c_mixed), expected = queue.read(c_float);
  for (std::size_t row : {std::size_t{0}, n / 3, n - 1}) {
    for (std::size_t col : {std::size_t{0}, n / 2, n - 1}) {
      double magnitude = 0;
      for (std::size_t p = 0; p < n; ++p)
        magnitude += std::fabs(double(wa[row * n + p]) * wb[p * n + col]);
      const float x = got[row * n + col], y = expected[row * n + col];
      if (!(std::fabs(x - y) <= 2 * (n + 3) * 1.2e-7 * magnitude))
        bench::wrong(kSuite, "gemm<half, float> gave C[" + std::to_string(row) + "][" +
                                 std::to_string(col) + "] = " + std::to_string(x) +
                                 ", the float GEMM " + std::to_string(y));
    }
  }
  const std::string where = std::string(to_string(engine)) + ", N=" + std::to_string(n);
  Figure baseline = bench::make_figure(kSuite, "GEMM float inputs, " + where, "GFLOP/s", s_float);
  figures.push_back(baseline);
  Figure figure =
      bench::make_figure(kSuite, "GEMM half inputs, float C, " + where, "GFLOP/s", s_mixed);
  bench::compare_with(figure, baseline, 0.8, false);
  figure.note = "target: >= 0.8x the float GEMM on the same engine";
  figures.push_back(figure);
}

}  // namespace

void bench_mixed_precision(Context& context, Queue& queue, const BenchOptions& options, int reps,
                           std::vector<Figure>& figures) {
  casts(context, queue, options.quick ? std::size_t{1} << 18 : std::size_t{1} << 24, reps, figures);
  const std::size_t n = options.quick ? 128 : 1024;
  mixed_gemm(context, queue, n, GemmEngine::kernel, reps, figures);
  const GemmEngine automatic = chosen_gemm_engine<half, float>(queue);
  if (automatic != GemmEngine::kernel) mixed_gemm(context, queue, n, automatic, reps, figures);
}

}  // namespace xgpu::cli
