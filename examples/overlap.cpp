// overlap: input prepared on worker threads, uploaded while the device computes, results
// downloaded while the next chunk computes. xgpu::Feeder does the first half: its workers
// fill each chunk into pinned host memory, its own queue uploads it, and next() hands the
// compute queue the chunk on the device, ordered after its upload without a host wait. The
// download half is written out: two device output buffers, chunk i using slot i % 2, ordered
// by markers and waits only:
//   compute  waits for the download of chunk i-2 (its output slot is free again),
//   download waits for the compute of chunk i.
// It then runs the same work serially (fill, upload, compute, download, each waited for)
// and prints both wall times: well under 1.0 where copies and kernels overlap (a GPU with copy
// engines); on a CPU device the stages share the same cores, so expect little. The pipelined
// part's queues are profiled: it also prints its commands' device time (what a trace of the
// run, XGPU_TRACE, adds up to).
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <vector>
#include <xgpu/algorithms.hpp>
#include <xgpu/xgpu.hpp>

namespace {

const char* const kSource = R"(
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

// The input, made on the fly as a data loader would read or decode it.
std::uint32_t input_value(std::size_t i) { return static_cast<std::uint32_t>(i * 2654435761u); }

std::uint64_t device_nanoseconds(const std::vector<xgpu::Event>& events) {
  std::uint64_t total = 0;
  for (const xgpu::Event& event : events) total += event.profile().duration().count();
  return total;
}

double milliseconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

}  // namespace

int main(int argc, char** argv) {
  try {
    xgpu::Context context(xgpu::select(argc > 1 ? argv[1] : ""));
    const bool simulator = context.device().info().implementation == "oclgrind";
    const std::size_t chunk = simulator ? 256 : 256 * 1024;  // elements per chunk
    const std::size_t chunks = 16;
    const std::size_t n = chunk * chunks;
    std::printf("device: %s\n", context.device().describe().c_str());

    xgpu::Kernel kernel = context.build({"overlap.cl", kSource}).kernel("scramble");
    const xgpu::QueueOptions profiled{true};
    xgpu::Queue compute = context.queue(profiled), download = context.queue(profiled);
    xgpu::HostBuffer<std::uint32_t> output = context.alloc_host<std::uint32_t>(n);
    xgpu::Buffer<std::uint32_t> out[2] = {context.alloc<std::uint32_t>(chunk),
                                          context.alloc<std::uint32_t>(chunk)};

    // Pipelined: one sample per batch, a chunk of `chunk` elements.
    xgpu::FeederOptions options;
    options.samples = chunks;
    options.batch_bytes = chunk * sizeof(std::uint32_t);
    const auto fill = [&](const xgpu::FeederRequest& request) {
      auto* in = static_cast<std::uint32_t*>(request.data);
      const std::size_t first = request.samples[0] * chunk;
      for (std::size_t i = 0; i < chunk; ++i) in[i] = input_value(first + i);
      return request.capacity;
    };
    auto started = std::chrono::steady_clock::now();
    double pipelined_ms = 0, device_ms = 0;
    {
      xgpu::Feeder feeder(compute, options, fill);
      xgpu::Event downloaded[2];          // per slot: the last download that read it
      std::vector<xgpu::Event> commands;  // the pipelined part's, for their device time
      while (std::optional<xgpu::FeederBatch> batch = feeder.next()) {
        const std::size_t c = batch->index, slot = c % 2;
        compute.wait(downloaded[slot]);  // the download of chunk c-2 has read out[slot]
        commands.push_back(batch->ready);
        commands.push_back(
            compute.launch(kernel, xgpu::Range(chunk), batch->as<std::uint32_t>(), out[slot]));
        const xgpu::Event computed = compute.marker();
        compute.flush();
        download.wait(computed);
        downloaded[slot] = download.read_async(out[slot], output, chunk, 0, c * chunk);
        commands.push_back(downloaded[slot]);
        download.flush();
      }
      download.finish();
      pipelined_ms = milliseconds_since(started);
      device_ms = static_cast<double>(device_nanoseconds(commands)) / 1e6;
    }
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < n; ++i) wrong += output[i] != scramble(input_value(i));

    // Serially: the same work, each step waited for before the next.
    xgpu::HostBuffer<std::uint32_t> staging = context.alloc_host<std::uint32_t>(chunk);
    xgpu::Buffer<std::uint32_t> in = context.alloc<std::uint32_t>(chunk);
    started = std::chrono::steady_clock::now();
    for (std::size_t c = 0; c < chunks; ++c) {
      for (std::size_t i = 0; i < chunk; ++i) staging[i] = input_value(c * chunk + i);
      compute.write_async(in, staging).wait();
      compute.launch(kernel, xgpu::Range(chunk), in, out[0]);
      compute.read_async(out[0], output, chunk, 0, c * chunk).wait();
    }
    const double serial_ms = milliseconds_since(started);
    for (std::size_t i = 0; i < n; ++i) wrong += output[i] != scramble(input_value(i));

    std::printf("%zu chunks of %zu KiB, pinned: %s\n", chunks, chunk * 4 / 1024,
                output.pinned() ? "yes" : "no");
    std::printf("pipelined %.3f ms, serial %.3f ms, ratio %.2f\n", pipelined_ms, serial_ms,
                pipelined_ms / serial_ms);
    std::printf("pipelined: wall %.3f ms, its commands' device time %.3f ms\n", pipelined_ms,
                device_ms);
    std::printf("overlap: %s\n", wrong == 0 ? "OK" : "WRONG");
    return wrong == 0 ? 0 : 1;
  } catch (const xgpu::Error& e) {
    std::fprintf(stderr, "overlap: %s\n", e.what());
    return 1;
  }
}
