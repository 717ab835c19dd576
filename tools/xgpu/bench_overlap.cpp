// The overlap figures of `xgpu bench memory`: xgpu::Feeder keeping a compute queue fed. A step
// is the upload of one batch (time U, measured alone) and a kernel on it (time C, measured
// alone and made about equal to U); the feeder's loop must take at most 1.1 x max(C, U) per
// batch in steady state, beside the same loop written serially (upload, wait, compute), which
// takes about C + U. The period of each loop is read on the device: the spacing of its
// kernels' ends (profiling events), over the batches after the first few.
//
// The kernel is one work-group that spins (a multiply chain), so that on a CPU device it takes
// one core and leaves the others to the copy, as a GPU's copy engine works beside its compute
// units. The fill writes the batch's number into its first word only: the figure is about the
// upload and the compute, not about making the data.
#include <algorithm>
#include <cstdint>
#include <string>
#include <xgpu/algorithms.hpp>
#include <xgpu/xgpu.hpp>

#include "bench_util.hpp"

namespace xgpu::cli {
namespace {

constexpr const char* kSpin = R"(
kernel void spin(global const uint* batch, global uint* sink, uint rounds) {
  uint x = batch[0] + get_local_id(0);
  for (uint r = 0; r < rounds; ++r) x = x * 1664525u + 1013904223u;
  sink[get_local_id(0)] = x;
}
)";
constexpr std::size_t kItems = 64;  // one work-group

double milliseconds(const EventTimes& p) { return static_cast<double>(p.end - p.start) / 1e6; }

/// The spacing of the kernels' ends from the `skip`-th on, per batch, in ms.
double period_ms(const std::vector<Event>& kernels, std::size_t skip) {
  const EventTimes first = kernels[skip - 1].profile(), last = kernels.back().profile();
  return static_cast<double>(last.end - first.end) / 1e6 /
         static_cast<double>(kernels.size() - skip);
}

struct OverlapRig {
  Context context;
  Queue compute;  // profiling
  Kernel spin;
  Buffer<std::uint32_t> sink;
  std::size_t batch_bytes, batches, skip;
  unsigned rounds = 1;
};

/// The kernel alone, rounds as set, in ms (median of 5, device time).
double compute_alone(OverlapRig& s, const Buffer<std::uint32_t>& batch) {
  Samples times;
  for (int r = 0; r < 5; ++r) {
    Event e = s.compute.launch(s.spin, Range{kItems}, Range{kItems}, batch, s.sink, s.rounds);
    e.wait();
    times.values.push_back(milliseconds(e.profile()));
  }
  return times.median();
}

/// The serial loop: each batch filled, uploaded and waited for, then computed.
double serial_period(OverlapRig& s, HostBuffer<std::uint32_t>& staging,
                     const Buffer<std::uint32_t>& batch) {
  std::vector<Event> kernels;
  for (std::size_t b = 0; b < s.batches; ++b) {
    staging[0] = static_cast<std::uint32_t>(b);
    s.compute.write_async(batch, staging).wait();
    kernels.push_back(
        s.compute.launch(s.spin, Range{kItems}, Range{kItems}, batch, s.sink, s.rounds));
  }
  s.compute.finish();
  return period_ms(kernels, s.skip);
}

/// The same loop through a Feeder; checks each batch's number on the device.
double feeder_period(OverlapRig& s) {
  FeederOptions o;
  o.samples = s.batches;
  o.batch_bytes = s.batch_bytes;
  o.workers = 1;
  o.prefetch = 2;
  Feeder feeder(s.compute, o, [](const FeederRequest& r) {
    static_cast<std::uint32_t*>(r.data)[0] = static_cast<std::uint32_t>(r.samples[0]);
    return r.capacity;
  });
  std::vector<Event> kernels;
  auto numbers = s.context.alloc<std::uint32_t>(s.batches);
  while (std::optional<FeederBatch> batch = feeder.next()) {
    const Buffer<std::uint32_t> words = batch->as<std::uint32_t>();
    kernels.push_back(
        s.compute.launch(s.spin, Range{kItems}, Range{kItems}, words, s.sink, s.rounds));
    s.compute.copy(words, numbers, 1, 0, batch->index);
  }
  s.compute.finish();
  const std::vector<std::uint32_t> got = s.compute.read(numbers);
  for (std::size_t b = 0; b < s.batches; ++b) {
    if (got[b] != b)
      throw Error(
          Errc::backend,
          "the feeder delivered batch " + std::to_string(got[b]) + " at place " + std::to_string(b),
          "bench");
  }
  return period_ms(kernels, s.skip);
}

}  // namespace

void bench_overlap(const Device& device, const BenchOptions& options,
                   std::vector<Figure>& figures) {
  const int reps = bench::repetitions(options, 3, 7);
  Context context(device);
  // 16 MiB batches (quick: 2 MiB): the upload dwarfs the cost of enqueuing it.
  OverlapRig s{context,
               context.queue({true}),
               context.build(Source{"bench_overlap.cl", kSpin}).kernel("spin"),
               context.alloc<std::uint32_t>(kItems),
               std::size_t{options.quick ? 2u : 16u} << 20,
               options.quick ? std::size_t{10} : std::size_t{24},
               3};
  HostBuffer<std::uint32_t> staging =
      context.alloc_host<std::uint32_t>(s.batch_bytes / sizeof(std::uint32_t));
  std::fill(staging.begin(), staging.end(), 0u);
  Buffer<std::uint32_t> batch = context.alloc<std::uint32_t>(staging.size());
  Queue upload = context.queue({true});

  // U: one upload alone. C: the kernel, its rounds scaled until it takes about U.
  const auto upload_alone = [&] {
    Samples times;
    for (int r = 0; r < 5; ++r) {
      Event e = upload.write_async(batch, staging);
      e.wait();
      times.values.push_back(milliseconds(e.profile()));
    }
    return times.median();
  };
  upload_alone();  // warm-up: first touches of the pages
  double u = upload_alone();
  s.rounds = 1000;
  compute_alone(s, batch);  // warm-up: the build's first launch
  for (int step = 0; step < 4; ++step) {
    const double c = compute_alone(s, batch);
    s.rounds = static_cast<unsigned>(std::max(1.0, s.rounds * u / std::max(c, 1e-3)));
  }
  bench::settle(s.compute);

  // The loops' own cost: the same loops with 4 KiB batches and a kernel of one round, C and
  // U near 0. What remains per batch is the hand-offs between threads and queues (a wake-up
  // of the worker, the uploader, the driver's threads), a floor that max(C, U) must exceed for
  // the overlap to show.
  OverlapRig tiny = s;
  tiny.batch_bytes = 4096;
  tiny.rounds = 1;
  HostBuffer<std::uint32_t> tiny_staging = context.alloc_host<std::uint32_t>(1024);
  Buffer<std::uint32_t> tiny_batch = context.alloc<std::uint32_t>(1024);

  Samples uploads, computes, floors, serial, fed, serial_alone, fed_alone;
  for (int r = 0; r < reps; ++r) {
    u = upload_alone();
    const double c = compute_alone(s, batch);
    uploads.values.push_back(u);
    computes.values.push_back(c);
    floors.values.push_back(std::max(c, u));
    serial.values.push_back(serial_period(s, staging, batch));
    fed.values.push_back(feeder_period(s));
    serial_alone.values.push_back(serial_period(tiny, tiny_staging, tiny_batch));
    fed_alone.values.push_back(feeder_period(tiny));
  }
  const std::string what = format_bytes(s.batch_bytes) + " batches";
  figures.push_back(
      bench::make_figure("memory", "overlap: upload alone (U), " + what, "ms", uploads));
  figures.push_back(bench::make_figure("memory", "overlap: compute alone (C)", "ms", computes));
  Figure floor = bench::make_figure("memory", "overlap: max(C, U)", "ms", floors);
  figures.push_back(floor);
  Figure serial_figure =
      bench::make_figure("memory", "overlap: serial loop, per batch (about C + U)", "ms", serial);
  bench::compare_paired(serial_figure, floor, 0, true);
  figures.push_back(serial_figure);
  Figure feeder_figure =
      bench::make_figure("memory", "overlap: xgpu::Feeder loop, per batch", "ms", fed);
  bench::compare_paired(feeder_figure, floor, 1.1, true);
  feeder_figure.note = std::string("steady state, the batches after the first ") +
                       std::to_string(s.skip) + " of " + std::to_string(s.batches) +
                       (staging.pinned() ? ", pinned" : ", not pinned") +
                       "; target <= 1.1 x max(C, U)";
  figures.push_back(feeder_figure);
  figures.push_back(bench::make_figure(
      "memory", "overlap: serial loop, per batch, C and U near 0 (its hand-offs)", "ms",
      serial_alone));
  figures.push_back(bench::make_figure(
      "memory", "overlap: xgpu::Feeder loop, per batch, C and U near 0 (its hand-offs)", "ms",
      fed_alone));
}

}  // namespace xgpu::cli
