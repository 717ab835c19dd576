// The `compute` suite of `xgpu bench`: peak arithmetic, clpeak-style, the roofline's compute
// roofs. Each work-item runs eight independent chains of fma on 16-wide vectors (float, double
// where cl_khr_fp64, half where cl_khr_fp16) and stores their sum, so the compiler can drop
// nothing. On a CPU device the same cores run the same chains on the host (bench_host_fma.cpp)
// in the same run.
#include <atomic>
#include <string>
#include <xgpu/extension.hpp>
#include <xgpu/xgpu.hpp>

#include "bench_host_fma.hpp"
#include "bench_util.hpp"

namespace xgpu::cli {
namespace {

using bench::Clock;
using bench::seconds_since;

// 64 fma of 16-wide TV per loop iteration: 2048 flops. m and c are arguments and every lane
// is stored: nothing folds. 16 lanes times 8 chains fill the fma units even where a driver
// does not vectorize across work-items (with 4 chains of float4, PoCL reached a third).
constexpr const char* kSource = R"(
#if defined(XGPU_HALF)
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#elif defined(XGPU_DOUBLE)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
#define STEP x0 = fma(x0, m, c); x1 = fma(x1, m, c); x2 = fma(x2, m, c); x3 = fma(x3, m, c); \
             x4 = fma(x4, m, c); x5 = fma(x5, m, c); x6 = fma(x6, m, c); x7 = fma(x7, m, c);
#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
__kernel void peak(__global float* out, float mf, float cf) {
  TV m = (TV)((T)mf), c = (TV)((T)cf);
  T g = (T)(get_global_id(0) & 7);
  TV x0 = (TV)(g), x1 = x0 + (T)1, x2 = x0 + (T)2, x3 = x0 + (T)3;
  TV x4 = x0 + (T)4, x5 = x0 + (T)5, x6 = x0 + (T)6, x7 = x0 + (T)7;
  for (int i = 0; i < XGPU_ITERATIONS; ++i) {
    STEP STEP STEP STEP STEP STEP STEP STEP
  }
  TV s = x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7;
  CAT(T, 8) s8 = s.lo + s.hi;
  CAT(T, 4) s4 = s8.lo + s8.hi;
  CAT(T, 2) s2 = s4.lo + s4.hi;
  out[get_global_id(0)] = (float)(s2.x + s2.y);
}
)";

struct Precision {
  const char* name;
  const char* defines;
};

void peak(const Device& device, const BenchOptions& options, const Precision& precision,
          std::vector<Figure>& figures) {
  const int reps = bench::repetitions(options, 3, 10);
  const std::size_t items = options.quick ? 8192 : 65536;
  const int iterations = options.quick ? 128 : 512;
  const double flops = double(items) * iterations * 2048;
  const std::string build_options =
      std::string(precision.defines) + " -D XGPU_ITERATIONS=" + std::to_string(iterations);

  auto started = Clock::now();
  Context context(device);
  Queue queue = context.queue();
  // A nonce: no kernel cache (xgpu's on disk, or PoCL's) may make the first call warm.
  Program program = context.build(Source{"bench_compute.cl", kSource},
                                  build_options + " -D XGPU_BENCH_NONCE=" + bench::nonce());
  Kernel kernel = program.kernel("peak");
  auto out = context.alloc<float>(items);
  queue.launch(kernel, Range{items}, out, 0.999f, 0.001f);
  queue.finish();
  Samples first{{seconds_since(started) * 1e3}};
  const std::string p = precision.name;
  const bool with_host = ext::is_cpu(device.info()) && p != "half";
  // The host does the same flops, split over its cores; a sink keeps the results alive.
  std::atomic<double> sink{0};
  std::atomic<std::uint64_t> done{0};
  auto host = [&](unsigned, unsigned threads) {
    std::uint64_t mine = 0;
    double sum = p == "double" ? bench::host_fma_double(flops / threads, &mine)
                               : bench::host_fma_float(flops / threads, &mine);
    done += mine;
    for (double old = sink; !sink.compare_exchange_weak(old, old + sum);) {
    }
  };
  if (with_host) bench::on_all_cores(host);  // warm-up
  // Device and host take turns, so that drift on a shared machine hits both alike.
  Samples device_samples, host_samples;
  for (int r = 0; r < reps; ++r) {
    auto t0 = Clock::now();
    queue.launch(kernel, Range{items}, out, 0.999f, 0.001f);
    queue.finish();
    device_samples.values.push_back(flops / seconds_since(t0) / 1e9);
    if (!with_host) continue;
    done = 0;
    double elapsed = bench::on_all_cores(host);
    host_samples.values.push_back(done / elapsed / 1e9);
  }
  figures.push_back(bench::make_figure("compute", "first call: context, build, " + p, "ms", first));
  Figure dev = bench::make_figure("compute", p + ", xgpu kernel", "GFLOP/s", device_samples);
  dev.roof = "compute:" + p;
  dev.flops = flops;
  dev.bytes = static_cast<double>(items * sizeof(float));
  if (!with_host) {
    figures.push_back(dev);
    return;
  }
  Figure base = bench::make_figure(
      "compute", p + ", host fma, " + std::to_string(bench::host_threads()) + " threads", "GFLOP/s",
      host_samples);
  base.note = std::string(bench::host_fma_kind()) + " fma, 8 chains per thread";
  bench::compare_with(dev, base, 0, false);
  figures.push_back(base);
  figures.push_back(dev);
}

}  // namespace

void bench_compute(const Device& device, const BenchOptions& options,
                   std::vector<Figure>& figures) {
  peak(device, options, {"float", "-D T=float -D TV=float16"}, figures);
  if (device.info().fp64) {
    peak(device, options, {"double", "-D XGPU_DOUBLE -D T=double -D TV=double16"}, figures);
  }
  if (device.info().fp16) {
    peak(device, options, {"half", "-D XGPU_HALF -D T=half -D TV=half16"}, figures);
  }
}

}  // namespace xgpu::cli
