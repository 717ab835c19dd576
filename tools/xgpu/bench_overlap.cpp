// The overlap figure of `xgpu bench memory`: the pipeline of examples/overlap.cpp (chunked
// upload -> compute -> download on three queues, double-buffered, pinned host memory, the
// queues ordered by Queue::marker and Queue::wait), timed as wall time against the sum of its
// commands' device times from profiling events. 1.0 is no overlap; on a GPU with copy
// engines the target is <= 0.6. On a CPU device (PoCL) the copies and the kernel run on the
// same cores, so no target: the figure is reported only.
#include <chrono>
#include <cstdint>
#include <string>
#include <xgpu/extension.hpp>
#include <xgpu/xgpu.hpp>

#include "bench_util.hpp"

namespace xgpu::cli {
namespace {

constexpr const char* kScramble = R"(
kernel void scramble(global const uint* in, global uint* out) {
  size_t i = get_global_id(0);
  uint x = in[i];
  for (int r = 0; r < 16; ++r) x = x * 1664525u + 1013904223u;
  out[i] = x;
}
)";

std::uint32_t scramble(std::uint32_t x) {
  for (int r = 0; r < 16; ++r) x = x * 1664525u + 1013904223u;
  return x;
}

double device_ms(const std::vector<Event>& events) {
  double total = 0;
  for (const Event& event : events) {
    Profile profile = event.profile();
    total += static_cast<double>(profile.end - profile.start) / 1e6;
  }
  return total;
}

struct PipelineRun {
  double wall_ms = 0, serial_ms = 0;
};

// One pass of the pipeline over `chunks` chunks; checks every element.
PipelineRun run_pipeline(const Kernel& kernel, Queue (&queues)[3],
                         const HostBuffer<std::uint32_t>& input, HostBuffer<std::uint32_t>& output,
                         Buffer<std::uint32_t> (&in)[2], Buffer<std::uint32_t> (&out)[2],
                         std::size_t chunk, std::size_t chunks) {
  Queue& upload = queues[0];
  Queue& compute = queues[1];
  Queue& download = queues[2];
  Event computed[2], downloaded[2];
  std::vector<Event> uploads, launches, downloads;
  const auto started = bench::Clock::now();
  for (std::size_t c = 0; c < chunks; ++c) {
    const std::size_t slot = c % 2;
    upload.wait(computed[slot]);
    uploads.push_back(upload.write_async(in[slot], input, chunk, 0, c * chunk));
    const Event uploaded = upload.marker();
    upload.flush();
    compute.wait(uploaded);
    compute.wait(downloaded[slot]);
    launches.push_back(compute.launch(kernel, Range(chunk), in[slot], out[slot]));
    computed[slot] = compute.marker();
    compute.flush();
    download.wait(computed[slot]);
    downloads.push_back(download.read_async(out[slot], output, chunk, 0, c * chunk));
    downloaded[slot] = downloads.back();
    download.flush();
  }
  download.finish();
  PipelineRun run;
  run.wall_ms = bench::seconds_since(started) * 1e3;
  for (std::size_t i = 0; i < chunk * chunks; ++i) {
    if (output[i] != scramble(input[i])) {
      throw Error(Errc::backend,
                  "the overlap pipeline gave a wrong result at element " + std::to_string(i),
                  "bench");
    }
  }
  run.serial_ms = device_ms(uploads) + device_ms(launches) + device_ms(downloads);
  return run;
}

}  // namespace

void bench_overlap(const Device& device, const BenchOptions& options,
                   std::vector<Figure>& figures) {
  const int reps = bench::repetitions(options, 3, 10);
  // 16 chunks of 4 MiB (quick: of 256 KiB): large enough that a copy engine's work dwarfs
  // the cost of enqueuing.
  const std::size_t chunk = (options.quick ? 64 : 1024) * 1024;
  const std::size_t chunks = 16;
  Context context(device);
  Kernel kernel = context.build(Source{"bench_overlap.cl", kScramble}).kernel("scramble");
  Queue queues[3] = {context.queue({true}), context.queue({true}), context.queue({true})};
  HostBuffer<std::uint32_t> input = context.alloc_host<std::uint32_t>(chunk * chunks);
  HostBuffer<std::uint32_t> output = context.alloc_host<std::uint32_t>(chunk * chunks);
  for (std::size_t i = 0; i < input.size(); ++i) {
    input[i] = static_cast<std::uint32_t>(i * 2654435761u);
  }
  Buffer<std::uint32_t> in[2] = {context.alloc<std::uint32_t>(chunk),
                                 context.alloc<std::uint32_t>(chunk)};
  Buffer<std::uint32_t> out[2] = {context.alloc<std::uint32_t>(chunk),
                                  context.alloc<std::uint32_t>(chunk)};
  run_pipeline(kernel, queues, input, output, in, out, chunk, chunks);  // warm-up
  bench::settle(queues[1]);  // the kernel cache's save, out of the timed rounds
  Samples wall, serial;
  for (int r = 0; r < reps; ++r) {
    PipelineRun run = run_pipeline(kernel, queues, input, output, in, out, chunk, chunks);
    wall.values.push_back(run.wall_ms);
    serial.values.push_back(run.serial_ms);
  }
  const std::string what = std::to_string(chunks) + " x " + format_bytes(chunk * 4);
  Figure sum =
      bench::make_figure("memory", "overlap pipeline, stages' device time sum", "ms", serial);
  Figure overlapped = bench::make_figure("memory", "overlap pipeline, wall time", "ms", wall);
  const bool gpu = !ext::is_cpu(device.info()) && device.info().implementation != "oclgrind";
  bench::compare_with(overlapped, sum, gpu ? 0.6 : 0, false);
  overlapped.note = what + (input.pinned() ? ", pinned" : ", not pinned") +
                    (gpu ? "; target <= 0.6 of the sum on a GPU"
                         : "; no target here: the stages share the same cores");
  figures.push_back(sum);
  figures.push_back(overlapped);
}

}  // namespace xgpu::cli
