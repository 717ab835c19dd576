// The `memory` suite of `xgpu bench`: STREAM's triad through an xgpu kernel against the same
// triad on every host core in the same run (the roofline's memory roof), then write, read, copy
// and map/unmap bandwidth over sizes from 4 KiB to 1 GiB in x16 steps, 256 MiB to 1 GiB the last
// (capped by the device's largest allocation), and the triad over the same sizes up to 256 MiB
// an array: the bandwidth curves; then the allocator (bench_allocation.cpp) and the overlap
// pipeline (bench_overlap.cpp).
#include <cmath>
#include <string>
#include <xgpu/extension.hpp>
#include <xgpu/xgpu.hpp>

#include "bench_util.hpp"

namespace xgpu::cli {
namespace {

using bench::Clock;
using bench::seconds_since;

constexpr std::size_t kKiB = 1024, kMiB = 1024 * kKiB, kGiB = 1024 * kMiB;

double gb_per_s(std::size_t bytes, double seconds) { return bytes / seconds / 1e9; }

void triad(const Device& device, const BenchOptions& options, std::vector<Figure>& figures) {
  const int reps = bench::repetitions(options, 3, 10);
  // Arrays well beyond any cache: 3 x 128 MiB (quick: 3 x 4 MiB).
  std::size_t n = (options.quick ? 4 : 128) * kMiB / sizeof(float);
  n = std::min<std::size_t>(n, device.info().max_allocation / sizeof(float));
  const float s = 3.0f;
  std::vector<float> host_a(n), host_b(n, 1.0f), host_c(n, 2.0f);

  auto started = Clock::now();
  Context context(device);
  Queue queue = context.queue();
  // A cold build.
  Kernel kernel = bench::triad_kernel(context, "-D XGPU_BENCH_NONCE=" + bench::nonce());
  auto a = context.alloc<float>(n), b = context.alloc<float>(n), c = context.alloc<float>(n);
  queue.write(b, host_b);
  queue.write(c, host_c);
  queue.launch(kernel, Range{n}, a, b, c, s);
  queue.finish();
  Samples first{{seconds_since(started) * 1e3}};
  if (queue.read(a)[n / 2] != 7.0f) {
    throw Error(Errc::backend, "the triad kernel gave a wrong result", "bench");
  }

  auto host_triad = [&](unsigned t, unsigned threads) {
    std::size_t begin = n * t / threads, end = n * (t + 1) / threads;
    for (std::size_t i = begin; i < end; ++i) host_a[i] = host_b[i] + s * host_c[i];
  };
  bench::on_all_cores(host_triad);  // warm-up, also first touch of host_a
  const std::size_t bytes = 3 * n * sizeof(float);
  Samples device_samples, host_samples;
  for (int r = 0; r < reps; ++r) {
    auto t0 = Clock::now();
    queue.launch(kernel, Range{n}, a, b, c, s);
    queue.finish();
    device_samples.values.push_back(gb_per_s(bytes, seconds_since(t0)));
    host_samples.values.push_back(gb_per_s(bytes, bench::on_all_cores(host_triad)));
  }
  if (host_a[n / 3] != 7.0f) throw Error(Errc::backend, "the host triad went wrong", "bench");

  const std::string arrays = "3 x " + format_bytes(n * sizeof(float));
  figures.push_back(bench::make_figure("memory", "first call: context, build, triad", "ms", first));
  Figure host = bench::make_figure(
      "memory", "triad, host, " + std::to_string(bench::host_threads()) + " threads", "GB/s",
      host_samples);
  Figure dev = bench::make_figure("memory", "triad, xgpu kernel", "GB/s", device_samples);
  dev.roof = "memory";
  dev.bytes = static_cast<double>(bytes);
  dev.flops = 2.0 * n;
  const bool cpu = ext::is_cpu(device.info());
  bench::compare_with(dev, host, cpu ? 0.95 : 0, false);
  dev.note = arrays + "; the host figure is the target's baseline on a CPU device only";
  figures.push_back(host);
  figures.push_back(dev);
}

// A point of a bandwidth curve: `bytes` counted per call of a transfer of `size`.
Figure curve_point(const std::string& name, const std::string& curve, std::size_t size,
                   double bytes, Samples samples) {
  Figure f = bench::make_figure("memory", name + ", " + format_bytes(size), "GB/s", samples);
  f.curve = curve;
  f.size = static_cast<double>(size);
  f.bytes = bytes;
  return f;
}

void transfers(const Device& device, const BenchOptions& options, std::vector<Figure>& figures) {
  const std::size_t cap =
      std::min<std::size_t>(options.quick ? 16 * kMiB : kGiB, device.info().max_allocation);
  // The triad holds three arrays: up to 256 MiB each keeps the suite under 3 GiB.
  constexpr std::size_t kTriadMax = 256 * kMiB;
  Context context(device);
  Queue queue = context.queue();
  Kernel triad_kernel = bench::triad_kernel(context);
  // 4 KiB to 256 MiB in x16 steps, then 1 GiB (the next step, 4 GiB, is past the 3 GiB
  // this suite may hold), each only up to the cap.
  std::vector<std::size_t> sizes;
  for (std::size_t size = 4 * kKiB; size <= std::min(cap, 256 * kMiB); size *= 16) {
    sizes.push_back(size);
  }
  if (cap >= kGiB) sizes.push_back(kGiB);
  for (std::size_t size : sizes) {
    // Small sizes take microseconds: more repetitions there for a stable median.
    const int reps = bench::repetitions(options, 3, size <= kMiB ? 50 : 5);
    const std::size_t count = size / sizeof(float);
    Samples write, read, copy, map, triad;
    {
      std::vector<float> host(count, 1.0f);
      auto buffer = context.alloc<float>(count);
      queue.write(buffer, host);  // warm-up: the first use of a buffer may allocate it
      queue.read(buffer, host.data());
      for (int r = 0; r < reps; ++r) {
        auto t0 = Clock::now();
        queue.write(buffer, host);
        write.values.push_back(gb_per_s(size, seconds_since(t0)));
        t0 = Clock::now();
        queue.read(buffer, host.data());
        read.values.push_back(gb_per_s(size, seconds_since(t0)));
      }
      queue.map(buffer).unmap();
      for (int r = 0; r < reps; ++r) {
        auto t0 = Clock::now();
        queue.map(buffer).unmap();
        map.values.push_back(gb_per_s(size, seconds_since(t0)));
      }
    }
    {  // the host copy is gone: at 1 GiB this keeps the suite under 3 GiB
      auto src = context.alloc<float>(count), dst = context.alloc<float>(count);
      queue.fill(src, 1.0f);
      queue.copy(src, dst);
      queue.finish();
      for (int r = 0; r < reps; ++r) {
        auto t0 = Clock::now();
        queue.copy(src, dst);
        queue.finish();
        // Read plus write, as STREAM counts a copy.
        copy.values.push_back(gb_per_s(2 * size, seconds_since(t0)));
      }
      if (size <= kTriadMax) {  // dst = src + 3 c, over three arrays of `size` bytes
        auto c = context.alloc<float>(count);
        queue.fill(c, 2.0f);
        queue.launch(triad_kernel, Range{count}, dst, src, c, 3.0f);
        queue.finish();
        for (int r = 0; r < reps; ++r) {
          auto t0 = Clock::now();
          queue.launch(triad_kernel, Range{count}, dst, src, c, 3.0f);
          queue.finish();
          triad.values.push_back(gb_per_s(3 * size, seconds_since(t0)));
        }
        if (queue.read(dst)[count - 1] != 7.0f)
          throw Error(Errc::backend, "the triad kernel gave a wrong result", "bench");
      }
    }
    const std::string at = ", " + format_bytes(size);
    const double bytes = static_cast<double>(size);
    figures.push_back(curve_point("write", "host to device", size, bytes, write));
    figures.push_back(curve_point("read", "device to host", size, bytes, read));
    figures.push_back(curve_point("copy", "device copy", size, 2 * bytes, copy));
    figures.push_back(bench::make_figure("memory", "map/unmap" + at, "GB/s", map));
    if (!triad.values.empty())
      figures.push_back(curve_point("triad", "triad", size, 3 * bytes, triad));
  }
}

}  // namespace

void bench_memory(const Device& device, const BenchOptions& options, std::vector<Figure>& figures) {
  triad(device, options, figures);
  transfers(device, options, figures);
  bench_allocator(device, options, figures);
  bench_overlap(device, options, figures);
}

}  // namespace xgpu::cli
