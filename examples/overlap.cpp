// overlap: a chunked upload -> compute -> download pipeline over three queues, so that while
// chunk i computes, chunk i+1 uploads and chunk i-1 downloads. Double buffering: two device
// input and two output buffers, chunk i using slot i % 2. The host memory is pinned
// (Context::alloc_host), and the queues are ordered by markers and waits, never by the host:
//   upload   waits for compute of chunk i-2 (its input slot is free again),
//   compute  waits for upload of chunk i and download of chunk i-2 (its output slot is free),
//   download waits for compute of chunk i.
// It then prints the wall time against the sum of the stages' device times (profiling): 1.0
// means no overlap at all; on a GPU with copy engines well under 1 (on a CPU device the
// stages share the same cores, so expect little).
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <vector>
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

std::uint64_t device_nanoseconds(const std::vector<xgpu::Event>& events) {
  std::uint64_t total = 0;
  for (const xgpu::Event& event : events) total += event.profile().duration().count();
  return total;
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
    xgpu::QueueOptions profiled{true};
    xgpu::Queue upload = context.queue(profiled), compute = context.queue(profiled),
                download = context.queue(profiled);
    xgpu::HostBuffer<std::uint32_t> input = context.alloc_host<std::uint32_t>(n);
    xgpu::HostBuffer<std::uint32_t> output = context.alloc_host<std::uint32_t>(n);
    for (std::size_t i = 0; i < n; ++i) input[i] = static_cast<std::uint32_t>(i * 2654435761u);
    xgpu::Buffer<std::uint32_t> in[2] = {context.alloc<std::uint32_t>(chunk),
                                         context.alloc<std::uint32_t>(chunk)};
    xgpu::Buffer<std::uint32_t> out[2] = {context.alloc<std::uint32_t>(chunk),
                                          context.alloc<std::uint32_t>(chunk)};

    // Per slot: the last command that used it, for the chunk two steps later to wait on.
    xgpu::Event computed[2], downloaded[2];
    std::vector<xgpu::Event> uploads, launches, downloads;
    const auto started = std::chrono::steady_clock::now();
    for (std::size_t c = 0; c < chunks; ++c) {
      const std::size_t slot = c % 2;
      upload.wait(computed[slot]);  // the compute of chunk c-2 has read in[slot]
      uploads.push_back(upload.write_async(in[slot], input, chunk, 0, c * chunk));
      const xgpu::Event uploaded = upload.marker();
      upload.flush();

      compute.wait(uploaded);
      compute.wait(downloaded[slot]);  // the download of chunk c-2 has read out[slot]
      launches.push_back(compute.launch(kernel, xgpu::Range(chunk), in[slot], out[slot]));
      computed[slot] = compute.marker();
      compute.flush();

      download.wait(computed[slot]);
      downloads.push_back(download.read_async(out[slot], output, chunk, 0, c * chunk));
      downloaded[slot] = downloads.back();
      download.flush();
    }
    download.finish();
    const double wall_ns =
        std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - started)
            .count();

    std::size_t wrong = 0;
    for (std::size_t i = 0; i < n; ++i) wrong += output[i] != scramble(input[i]);
    const double serial_ns = static_cast<double>(
        device_nanoseconds(uploads) + device_nanoseconds(launches) + device_nanoseconds(downloads));
    std::printf("%zu chunks of %zu KiB, pinned: %s\n", chunks, chunk * 4 / 1024,
                input.pinned() ? "yes" : "no");
    std::printf("wall %.3f ms, stages' device time %.3f ms, ratio %.2f\n", wall_ns / 1e6,
                serial_ns / 1e6, wall_ns / serial_ns);
    std::printf("overlap: %s\n", wrong == 0 ? "OK" : "WRONG");
    return wrong == 0 ? 0 : 1;
  } catch (const xgpu::Error& e) {
    std::fprintf(stderr, "overlap: %s\n", e.what());
    return 1;
  }
}
