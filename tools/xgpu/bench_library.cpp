// The `library` suite of `xgpu bench`: the algorithms library against its peers in the same
// process, on the same device and data: Boost.Compute (reduce, inclusive_scan, sort),
// std::sort, CLBlast and a host BLAS (SGEMM), a host loop (sum), a device copy (transpose)
// and a device triad kernel (axpy, softmax); then the mixed-precision figures (bench_mixed.cpp:
// casts, half-input GEMM). Every result, ours and the peers', is checked, so a fast wrong
// answer cannot pass as a figure.
#include <algorithm>
#include <boost/compute/algorithm/inclusive_scan.hpp>
#include <boost/compute/algorithm/reduce.hpp>
#include <boost/compute/algorithm/sort.hpp>
#include <boost/compute/utility/program_cache.hpp>
#include <cmath>
#include <cstring>
#include <numeric>
#include <random>
#include <xgpu/algorithms.hpp>
#include <xgpu/boost_compute.hpp>  // first: it sets the OpenCL version for Boost.Compute
#include <xgpu/xgpu.hpp>

#include "bench_peers.hpp"
#include "bench_util.hpp"

namespace xgpu::cli {
namespace {

using bench::count_text;
using bench::milliseconds;
using bench::random_floats;
namespace bc = boost::compute;

constexpr const char* kSuite = "library";

// Marks xgpu's figure of an operation as its point on the roofline: `flops` arithmetic
// operations (integer ones for the scan) and `bytes` moved per call. A figure in GB/s counts
// the same bytes; one in ms counts the least traffic of the operation (each input read once,
// each output written once), which the implementation may exceed (docs/BENCHMARKS.md).
Figure on_roofline(Figure figure, const char* op, double flops, double bytes) {
  figure.op = op;
  figure.flops = flops;
  figure.bytes = bytes;
  return figure;
}

// Pushes the xgpu figure after its peers, compared with `baseline` (a time: at most).
void add_compared(std::vector<Figure>& figures, Figure xgpu_figure, const Figure& baseline,
                  double target, bool at_most, std::string note = {}) {
  bench::compare_with(xgpu_figure, baseline, target, at_most);
  xgpu_figure.note = std::move(note);
  figures.push_back(std::move(xgpu_figure));
}

// The scan's floor: a copy, the least memory traffic of any scan (each element read once and
// written once). Each item copies a run of KCOPYRUN uint16 vectors with the library's streaming
// stores (xgpu_common.cl), as xgpu's CPU scan writes, so that no written line is read first.
constexpr std::size_t kCopyRun = 64;
constexpr const char* kCopySource = R"(
#include "xgpu_common.cl"
__kernel void copy(__global uint16* out, __global const uint16* in) {
  const size_t start = get_global_id(0) * KCOPYRUN;
  for (size_t k = start; k < start + KCOPYRUN; ++k) XGPU_STREAM_STORE(in[k], out + k);
  XGPU_STREAM_FENCE();
}
)";

// Runs the triad kernel over n floats a, b, c (a = b + 3c) and waits.
void run_triad(Queue& queue, const Kernel& triad, std::size_t n, const Buffer<float>& a,
               const Buffer<float>& b, const Buffer<float>& c) {
  queue.launch(triad, Range{n}, a, b, c, 3.0f);
  queue.finish();
}

void sum(Context& context, Queue& queue, std::size_t n, int reps, std::vector<Figure>& figures) {
  const std::vector<float> host = random_floats(n, 0.0f, 1.0f, 1);
  double exact = 0;
  for (float v : host) exact += v;
  auto x = context.alloc<float>(n);
  queue.write(x, host);
  bc::command_queue bc_queue = boost_compute::queue(queue);

  float ours = 0, theirs = 0;
  std::vector<float> partial(bench::host_threads());
  auto host_sum = [&](unsigned t, unsigned threads) {
    // The fastest plain host loop: four independent 8-wide vector accumulators (GCC/Clang
    // vector extensions), so the loop runs at memory speed rather than at add latency.
    typedef float Vec8 __attribute__((vector_size(32)));
    const std::size_t begin = n * t / threads, end = n * (t + 1) / threads;
    Vec8 acc[4] = {};
    std::size_t i = begin;
    for (; i + 32 <= end; i += 32) {
      for (int j = 0; j < 4; ++j) {
        Vec8 v;
        std::memcpy(&v, &host[i + 8 * j], sizeof v);
        acc[j] += v;
      }
    }
    const Vec8 all = (acc[0] + acc[1]) + (acc[2] + acc[3]);
    float total = 0;
    for (int j = 0; j < 8; ++j) total += all[j];
    for (; i < end; ++i) total += host[i];
    partial[t] = total;
  };
  auto run_ours = [&] { ours = xgpu::sum(queue, x); };
  auto run_boost = [&] {
    bc::reduce(boost_compute::begin(x), boost_compute::end(x), &theirs, bc_queue);
  };
  // The floor: the time to read the n floats once at the bandwidth of the triad kernel (which
  // moves 12 bytes per element), measured after the rounds.
  const Kernel triad = bench::triad_kernel(context);
  auto ta = context.alloc<float>(n), tb = context.alloc<float>(n), tc = context.alloc<float>(n);
  queue.fill(tb, 1.0f);
  queue.fill(tc, 2.0f);
  run_ours();
  run_boost();
  bench::on_all_cores(host_sum);
  run_triad(queue, triad, n, ta, tb, tc);
  bench::settle(queue);
  Samples s_ours, s_boost, s_host, s_floor;
  for (int r = 0; r < reps; ++r) {
    s_ours.values.push_back(milliseconds(run_ours));
    s_boost.values.push_back(milliseconds(run_boost));
    s_host.values.push_back(bench::on_all_cores(host_sum) * 1e3);
  }
  // Not in the rounds above: the triad leaves 64 MiB of written lines in the caches, whose
  // write-back slowed whichever sum ran next.
  for (int r = 0; r < reps; ++r)
    s_floor.values.push_back(milliseconds([&] { run_triad(queue, triad, n, ta, tb, tc); }) / 3);
  // Each float sum is off by at most ~n * eps * sum in the worst case; far less in practice.
  const double bound = 1e-4 * exact;
  const double host_total = std::accumulate(partial.begin(), partial.end(), 0.0);
  if (std::fabs(host_total - exact) > bound) bench::wrong(kSuite, "the host loop's sum is off");
  if (std::fabs(theirs - exact) > bound) bench::wrong(kSuite, "Boost.Compute's sum is off");
  if (queue.read(ta)[n / 2] != 7.0f) bench::wrong(kSuite, "the triad kernel gave a wrong result");
  if (std::fabs(ours - exact) > bound)
    bench::wrong(kSuite,
                 "xgpu::sum gave " + std::to_string(ours) + ", expected " + std::to_string(exact));
  const std::string size = count_text(n) + " floats";
  Figure boost = bench::make_figure(kSuite, "sum, Boost.Compute reduce, " + size, "ms", s_boost);
  Figure host_loop = bench::make_figure(
      kSuite, "sum, host loop, " + std::to_string(bench::host_threads()) + " threads, " + size,
      "ms", s_host);
  figures.push_back(boost);
  figures.push_back(host_loop);
  Figure floor = bench::make_figure(
      kSuite, "sum floor: reading " + size + " at the triad kernel's bandwidth", "ms", s_floor);
  bench::compare_with(floor, boost, 0, true);
  floor.note = "the least a sum can take: its ratio is the best xgpu::sum's can be";
  figures.push_back(floor);
  Figure xgpu_vs_boost = bench::make_figure(kSuite, "sum, xgpu::sum, " + size, "ms", s_ours);
  Figure xgpu_vs_host = xgpu_vs_boost;
  xgpu_vs_host.name = "sum, xgpu::sum (against the host loop), " + size;
  xgpu_vs_boost = on_roofline(xgpu_vs_boost, "sum", double(n), 4.0 * n);
  add_compared(figures, xgpu_vs_boost, boost, 0.2, true, "target: >= 5x Boost.Compute");
  add_compared(figures, xgpu_vs_host, host_loop, 1.0, true, "target: no slower than the host loop");
}

void scan(Context& context, Queue& queue, std::size_t n, int reps, std::vector<Figure>& figures) {
  std::vector<std::uint32_t> host(n);
  for (std::size_t i = 0; i < n; ++i) host[i] = static_cast<std::uint32_t>(i % 7);
  auto in = context.alloc<std::uint32_t>(n), out = context.alloc<std::uint32_t>(n),
       bc_out = context.alloc<std::uint32_t>(n);
  queue.write(in, host);
  bc::command_queue bc_queue = boost_compute::queue(queue);
  auto run_ours = [&] {
    xgpu::inclusive_scan(queue, in, out);
    queue.finish();
  };
  auto run_boost = [&] {
    bc::inclusive_scan(boost_compute::begin(in), boost_compute::end(in),
                       boost_compute::begin(bc_out), bc_queue);
    bc_queue.finish();
  };
  // The floor: a kernel that copies the elements (what every scan must at least read and
  // write) into a buffer of its own, measured after the rounds as the sum's floor is.
  const Kernel copy = context
                          .build(Source{"bench_library_copy.cl", kCopySource},
                                 "-D KCOPYRUN=" + std::to_string(kCopyRun))
                          .kernel("copy");
  auto copied = context.alloc<std::uint32_t>(n);
  // Whole runs only: the few elements past them are not copied (16M elements have none).
  const std::size_t copy_items = n / (16 * kCopyRun);
  auto run_copy = [&] {
    queue.launch(copy, Range{copy_items}, copied, in);
    queue.finish();
  };
  run_ours();
  run_boost();
  run_copy();
  bench::settle(queue);
  Samples s_ours, s_boost, s_floor;
  for (int r = 0; r < reps; ++r) {
    s_ours.values.push_back(milliseconds(run_ours));
    s_boost.values.push_back(milliseconds(run_boost));
  }
  for (int r = 0; r < reps; ++r) s_floor.values.push_back(milliseconds(run_copy));
  std::vector<std::uint32_t> expected(n);
  std::partial_sum(host.begin(), host.end(), expected.begin());
  if (queue.read(out) != expected)
    bench::wrong(kSuite, "xgpu::inclusive_scan differs from the host's");
  if (queue.read(bc_out) != expected)
    bench::wrong(kSuite, "Boost.Compute's inclusive_scan differs from the host's");
  const std::vector<std::uint32_t> copied_host = queue.read(copied);
  if (!std::equal(host.begin(), host.begin() + copy_items * 16 * kCopyRun, copied_host.begin()))
    bench::wrong(kSuite, "the copy kernel gave a wrong result");
  const std::string size = count_text(n) + " uint32";
  Figure boost =
      bench::make_figure(kSuite, "inclusive scan, Boost.Compute, " + size, "ms", s_boost);
  figures.push_back(boost);
  Figure floor = bench::make_figure(
      kSuite, "scan floor: a kernel copying " + size + " (one read, one write each)", "ms",
      s_floor);
  bench::compare_with(floor, boost, 0, true);
  floor.note = "the least traffic of a scan: its ratio is about the best xgpu's scan can reach";
  figures.push_back(floor);
  add_compared(
      figures,
      on_roofline(bench::make_figure(kSuite, "inclusive scan, xgpu, " + size, "ms", s_ours),
                  "inclusive scan", double(n), 8.0 * n),
      boost, 1.0 / 3, true, "target: >= 3x Boost.Compute");
}

void sort(Context& context, Queue& queue, std::size_t n, int reps, std::vector<Figure>& figures) {
  std::vector<std::uint32_t> host(n);
  std::mt19937 random(3);
  for (auto& v : host) v = random();
  std::vector<std::uint32_t> expected = host;
  std::sort(expected.begin(), expected.end());
  auto keys = context.alloc<std::uint32_t>(n);
  bc::command_queue bc_queue = boost_compute::queue(queue);
  // Each run sorts fresh random keys: the upload is outside the timed part.
  auto run_ours = [&] {
    queue.write(keys, host);
    return milliseconds([&] {
      xgpu::sort(queue, keys);
      queue.finish();
    });
  };
  auto run_boost = [&] {
    queue.write(keys, host);
    return milliseconds([&] {
      bc::sort(boost_compute::begin(keys), boost_compute::end(keys), bc_queue);
      bc_queue.finish();
    });
  };
  auto run_std = [&] {
    std::vector<std::uint32_t> copy = host;
    return milliseconds([&] { std::sort(copy.begin(), copy.end()); });
  };
  // The floor: the memory sweeps of xgpu::sort's CPU layout on these keys (4 passes of 8-bit
  // digits, each reading the keys twice, histogram and scatter, and writing them once; see
  // docs/algorithms.md) at the bandwidth of a device copy of the same keys, which reads
  // them once and writes them once: 12 sweeps are 6 copies.
  constexpr double kSortSweeps = 4 * 3, kCopySweeps = 2;
  auto copy = context.alloc<std::uint32_t>(n);
  auto run_copy = [&] {
    return milliseconds([&] {
      queue.copy(keys, copy);
      queue.finish();
    });
  };
  run_ours();
  if (queue.read(keys) != expected) bench::wrong(kSuite, "xgpu::sort did not sort");
  run_boost();
  if (queue.read(keys) != expected) bench::wrong(kSuite, "Boost.Compute's sort did not sort");
  run_copy();
  if (queue.read(copy) != expected) bench::wrong(kSuite, "the device copy differs from its source");
  bench::settle(queue);
  Samples s_ours, s_boost, s_std, s_floor;
  for (int r = 0; r < reps; ++r) {
    s_ours.values.push_back(run_ours());
    s_boost.values.push_back(run_boost());
    s_std.values.push_back(run_std());
  }
  // After the rounds, as the sum's floor: a copy's written lines, still in the caches, would
  // be written back during whichever sort ran next.
  for (int r = 0; r < reps; ++r) s_floor.values.push_back(run_copy() * kSortSweeps / kCopySweeps);
  const std::string size = count_text(n) + " uint32";
  Figure boost = bench::make_figure(kSuite, "sort, Boost.Compute, " + size, "ms", s_boost);
  Figure host_sort =
      bench::make_figure(kSuite, "sort, std::sort on the host, " + size, "ms", s_std);
  figures.push_back(boost);
  figures.push_back(host_sort);
  Figure floor = bench::make_figure(
      kSuite, "sort floor: 12 sweeps of " + size + " at the device copy's bandwidth", "ms",
      s_floor);
  bench::compare_with(floor, boost, 0, true);
  floor.note =
      "4 passes of a histogram read, a scatter read and a write, each as fast as a device copy: "
      "its ratio is the best xgpu::sort's can be";
  figures.push_back(floor);
  Figure xgpu_vs_boost = bench::make_figure(kSuite, "sort, xgpu::sort, " + size, "ms", s_ours);
  Figure xgpu_vs_std = xgpu_vs_boost;
  xgpu_vs_std.name = "sort, xgpu::sort (against std::sort), " + size;
  xgpu_vs_boost = on_roofline(xgpu_vs_boost, "sort", 0, 8.0 * n);  // no arithmetic
  add_compared(figures, xgpu_vs_boost, boost, 0.25, true, "target: >= 4x Boost.Compute");
  add_compared(figures, xgpu_vs_std, host_sort, 0.25, true, "target: >= 4x std::sort");
}

void sgemm(Context& context, Queue& queue, std::size_t n, int reps, std::vector<Figure>& figures) {
  const std::vector<float> a = random_floats(n * n, -1, 1, 4), b = random_floats(n * n, -1, 1, 5);
  std::vector<float> c(n * n);
  auto da = context.alloc<float>(n * n), db = context.alloc<float>(n * n),
       dc = context.alloc<float>(n * n), dc_peer = context.alloc<float>(n * n);
  queue.write(da, a);
  queue.write(db, b);
  const double flops = 2.0 * n * n * n;
  auto gflops = [&](double ms) { return flops / (ms * 1e-3) / 1e9; };
  const std::string size = "N=" + std::to_string(n);

  bench::HostSgemm host_blas;
  bench::ClblastSgemm clblast;
  Samples s_ours, s_host, s_clblast;
  auto run_ours = [&] {
    return gflops(milliseconds([&] {
      xgpu::gemm<float>(queue, n, n, n, 1.0f, da, db, 0.0f, dc);
      queue.finish();
    }));
  };
  run_ours();  // warm-up: builds, first launches
  if (host_blas.loaded()) host_blas.run(a.data(), b.data(), c.data(), n);
  if (clblast.loaded()) clblast.run(queue, da, db, dc_peer, n);  // compiles CLBlast's kernels
  bench::settle(queue);
  auto run_host = [&] {
    if (host_blas.loaded())
      s_host.values.push_back(
          gflops(milliseconds([&] { host_blas.run(a.data(), b.data(), c.data(), n); })));
  };
  // CLBlast first, then ours and the host BLAS taking turns at going next: whichever BLAS
  // runs right after a long PoCL kernel is a few percent slower (measured), and a fixed
  // order put xgpu::gemm there every round (its ratio then spread widely for one build).
  for (int r = 0; r < reps; ++r) {
    if (clblast.loaded())
      s_clblast.values.push_back(
          gflops(milliseconds([&] { clblast.run(queue, da, db, dc_peer, n); })));
    if (r % 2 == 0) {
      s_ours.values.push_back(run_ours());
      run_host();
    } else {
      run_host();
      s_ours.values.push_back(run_ours());
    }
  }
  // Sampled elements of each C against double-precision dot products.
  auto check = [&](const std::vector<float>& got, const std::string& who) {
    for (std::size_t row : {std::size_t{0}, n / 3, n - 1}) {
      for (std::size_t col : {std::size_t{0}, n / 2, n - 1}) {
        double expected = 0, magnitude = 0;
        for (std::size_t p = 0; p < n; ++p) {
          expected += double(a[row * n + p]) * b[p * n + col];
          magnitude += std::fabs(double(a[row * n + p]) * b[p * n + col]);
        }
        if (std::fabs(got[row * n + col] - expected) > (n + 3) * 1.2e-7 * magnitude)
          bench::wrong(kSuite, who + " gave C[" + std::to_string(row) + "][" + std::to_string(col) +
                                   "] = " + std::to_string(got[row * n + col]) + ", expected " +
                                   std::to_string(expected));
      }
    }
  };
  check(queue.read(dc), "xgpu::gemm");
  if (clblast.loaded()) check(queue.read(dc_peer), "CLBlast");
  if (host_blas.loaded()) check(c, "the host BLAS");

  Figure ours = bench::make_figure(kSuite,
                                   "SGEMM, xgpu::gemm (" +
                                       std::string(to_string(chosen_gemm_engine<float>(queue))) +
                                       "), " + size,
                                   "GFLOP/s", s_ours);
  ours = on_roofline(ours, "SGEMM", flops, 3.0 * n * n * sizeof(float));  // A, B read; C written
  if (clblast.loaded()) {
    Figure peer = bench::make_figure(kSuite, "SGEMM, CLBlast, " + size, "GFLOP/s", s_clblast);
    figures.push_back(peer);
  } else {
    Figure missing = bench::make_figure(kSuite, "SGEMM, CLBlast, " + size, "GFLOP/s");
    missing.note = "CLBlast " + clblast.description();
    figures.push_back(missing);
  }
  if (host_blas.loaded()) {
    Figure host = bench::make_figure(
        kSuite, "SGEMM, host BLAS (" + host_blas.description() + "), " + size, "GFLOP/s", s_host);
    figures.push_back(host);
    add_compared(figures, ours, host, 0.9, false, "target: >= 0.9x the host BLAS");
  } else {
    ours.note = "no host BLAS to compare with: " + host_blas.description();
    figures.push_back(ours);
  }
}

void transpose(Context& context, Queue& queue, std::size_t side, int reps,
               std::vector<Figure>& figures) {
  const std::size_t n = side * side;
  auto in = context.alloc<float>(n), out = context.alloc<float>(n), copy = context.alloc<float>(n);
  const std::vector<float> host = random_floats(n, -1, 1, 6);
  queue.write(in, host);
  const double bytes = 2.0 * n * sizeof(float);  // read plus write, as STREAM counts a copy
  auto gb_per_s = [&](double ms) { return bytes / (ms * 1e-3) / 1e9; };
  auto run_ours = [&] {
    return gb_per_s(milliseconds([&] {
      xgpu::transpose(queue, in, out, side, side);
      queue.finish();
    }));
  };
  auto run_copy = [&] {
    return gb_per_s(milliseconds([&] {
      queue.copy(in, copy);
      queue.finish();
    }));
  };
  run_ours();
  run_copy();
  bench::settle(queue);
  Samples s_ours, s_copy;
  for (int r = 0; r < reps; ++r) {
    s_ours.values.push_back(run_ours());
    s_copy.values.push_back(run_copy());
  }
  const std::vector<float> got = queue.read(out);
  for (std::size_t probe : {std::size_t{0}, side + 3, n / 2 + 7, n - 1}) {
    const std::size_t row = probe / side, col = probe % side;
    if (got[col * side + row] != host[probe])
      bench::wrong(kSuite, "xgpu::transpose misplaced element " + std::to_string(probe));
  }
  const std::string size = std::to_string(side) + "^2 floats";
  Figure device_copy = bench::make_figure(kSuite, "device copy, " + size, "GB/s", s_copy);
  figures.push_back(device_copy);
  add_compared(figures,
               on_roofline(bench::make_figure(kSuite, "transpose, xgpu, " + size, "GB/s", s_ours),
                           "transpose", 0, bytes),
               device_copy, 0.8, false, "target: >= 0.8x the copy");
}

// Row-wise softmax of rows x cols floats: its input, and its results of a few rows checked
// against a double-precision reference.
struct SoftmaxCase {
  const char* op;  ///< its name on the roofline
  std::size_t rows, cols;
  std::vector<float> host;
  Buffer<float> in, out;
  Samples samples;
  std::string name() const {
    return "softmax, xgpu::softmax_rows, " + std::to_string(rows) + " x " + std::to_string(cols) +
           " floats";
  }
  // Three passes over the matrix: the row maximum (read), the sum of the weights (read),
  // the results (read and write): 16 bytes per element, whatever the kernel keeps in cache.
  double pass_bytes() const { return 16.0 * rows * cols; }
  void check(Queue& queue) const {
    const std::vector<float> got = queue.read(out);
    for (std::size_t row : {std::size_t{0}, rows / 2, rows - 1}) {
      const float* x = &host[row * cols];
      double maximum = x[0], sum = 0;
      for (std::size_t c = 0; c < cols; ++c) maximum = std::max<double>(maximum, x[c]);
      for (std::size_t c = 0; c < cols; ++c) sum += std::exp(x[c] - maximum);
      for (std::size_t c = 0; c < cols; ++c) {
        const double expected = std::exp(x[c] - maximum) / sum;
        if (std::fabs(got[row * cols + c] - expected) > 1e-5 * expected + 1e-30)
          bench::wrong(kSuite, name() + " gave [" + std::to_string(row) + "][" + std::to_string(c) +
                                   "] = " + std::to_string(got[row * cols + c]) + ", expected " +
                                   std::to_string(expected));
      }
    }
  }
};

// axpy (y = a*x + y: x and y read, y written, as many bytes as the triad) and softmax, each
// against the triad kernel's bandwidth, all four taking turns in every round.
void streaming(Context& context, Queue& queue, std::size_t n, bool quick, int reps,
               std::vector<Figure>& figures) {
  const std::size_t bytes = 3 * n * sizeof(float);
  auto gb_per_s = [](double bytes_moved, double ms) { return bytes_moved / (ms * 1e-3) / 1e9; };
  const Kernel triad = bench::triad_kernel(context);
  auto a = context.alloc<float>(n), b = context.alloc<float>(n), c = context.alloc<float>(n);
  queue.fill(b, 1.0f);
  queue.fill(c, 2.0f);
  // Small integers, so that every y = x + y is exact and the result after k runs is known.
  std::vector<float> host_x(n), host_y(n);
  for (std::size_t i = 0; i < n; ++i) {
    host_x[i] = static_cast<float>(i % 7);
    host_y[i] = static_cast<float>(i % 5);
  }
  auto x = context.alloc<float>(n), y = context.alloc<float>(n);
  queue.write(x, host_x);
  queue.write(y, host_y);

  // A long-row shape (a work-group per row on GPUs) and a short-row one (a row per item);
  // both n elements.
  std::vector<SoftmaxCase> softmaxes;
  for (std::size_t cols : {quick ? std::size_t{4096} : std::size_t{65536}, std::size_t{16}}) {
    SoftmaxCase one{cols == 16 ? "softmax, short rows" : "softmax, long rows",
                    n / cols,
                    cols,
                    random_floats(n, -4, 4, 7 + unsigned(cols)),
                    {},
                    {},
                    {}};
    one.in = context.alloc<float>(n);
    one.out = context.alloc<float>(n);
    queue.write(one.in, one.host);
    softmaxes.push_back(std::move(one));
  }

  auto triad_once = [&] { run_triad(queue, triad, n, a, b, c); };
  int axpy_runs = 0;
  auto run_axpy = [&] {
    xgpu::axpy(queue, 1.0f, x, y);
    queue.finish();
    ++axpy_runs;
  };
  auto run_softmax = [&](SoftmaxCase& one) {
    xgpu::softmax_rows(queue, one.in, one.out, one.rows, one.cols);
    queue.finish();
  };
  triad_once();
  run_axpy();
  for (SoftmaxCase& one : softmaxes) run_softmax(one);
  bench::settle(queue);
  Samples s_triad, s_axpy;
  for (int r = 0; r < reps; ++r) {
    s_triad.values.push_back(gb_per_s(bytes, milliseconds(triad_once)));
    s_axpy.values.push_back(gb_per_s(bytes, milliseconds(run_axpy)));
    for (SoftmaxCase& one : softmaxes)
      one.samples.values.push_back(
          gb_per_s(one.pass_bytes(), milliseconds([&] { run_softmax(one); })));
  }

  if (queue.read(a)[n / 2] != 7.0f) bench::wrong(kSuite, "the triad kernel gave a wrong result");
  const std::vector<float> got_y = queue.read(y);
  for (std::size_t i : {std::size_t{0}, std::size_t{1}, n / 3, n - 1}) {
    if (got_y[i] != host_y[i] + static_cast<float>(axpy_runs) * host_x[i])
      bench::wrong(kSuite,
                   "xgpu::axpy gave y[" + std::to_string(i) + "] = " + std::to_string(got_y[i]));
  }
  for (const SoftmaxCase& one : softmaxes) one.check(queue);

  const std::string size = count_text(n) + " floats";
  Figure device_triad = bench::make_figure(kSuite, "triad kernel, 3 x " + size, "GB/s", s_triad);
  device_triad.roof = "memory";  // the roof where the memory suite did not run
  device_triad.flops = 2.0 * n;
  device_triad.bytes = static_cast<double>(bytes);
  figures.push_back(device_triad);
  add_compared(figures,
               on_roofline(bench::make_figure(kSuite, "axpy, xgpu::axpy, " + size, "GB/s", s_axpy),
                           "axpy", 2.0 * n, static_cast<double>(bytes)),
               device_triad, 0.9, false, "target: >= 0.9x the triad's bandwidth (3 arrays)");
  // Five operations an element: maximum, subtract, exp (counted as one), sum, divide.
  for (const SoftmaxCase& one : softmaxes)
    add_compared(figures,
                 on_roofline(bench::make_figure(kSuite, one.name(), "GB/s", one.samples), one.op,
                             5.0 * one.rows * one.cols, one.pass_bytes()),
                 device_triad, 0.7, false,
                 "target: >= 0.7x the triad's bandwidth, counting 16 bytes per element (its "
                 "three passes: read, read, read and write)");
}

}  // namespace

void bench_library(const Device& device, const BenchOptions& options,
                   std::vector<Figure>& figures) {
  const int reps = bench::repetitions(options, 2, 7);
  Context context(device);
  Queue queue = context.queue();
  const std::size_t elements = options.quick ? std::size_t{1} << 18 : std::size_t{1} << 24;
  sum(context, queue, elements, reps, figures);
  scan(context, queue, elements, reps, figures);
  sort(context, queue, elements, reps, figures);
  sgemm(context, queue, options.quick ? 128 : 1024, reps, figures);
  transpose(context, queue, options.quick ? 512 : 4096, reps, figures);
  streaming(context, queue, elements, options.quick, reps, figures);
  bench_mixed_precision(context, queue, options, reps, figures);
  // Boost.Compute's process-wide program cache would otherwise outlive the drivers at exit.
  bc::program_cache::get_global_cache(boost_compute::context(context))->clear();
}

}  // namespace xgpu::cli
