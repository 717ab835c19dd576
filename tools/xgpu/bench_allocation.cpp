// The allocator figures of `xgpu bench memory`: a pooled alloc+free against the driver's own
// allocation (clCreateBuffer/clReleaseMemObject through the C API, nothing of xgpu between),
// twice: the allocation alone, and the allocation with its first use (a 1-byte blocking
// write). The second is the fair one: some drivers (PoCL) only reserve memory when a buffer
// is first used, so their create alone is a malloc of a handle. Then the replay of a small
// transformer's training step (bench_alloc_trace.hpp).
//
// The process's own allocator is measured (XGPU_ALLOCATOR as the user set it): the bench never
// changes the environment, which other threads may be reading.
#include <functional>
#include <optional>
#include <string>
#include <xgpu/xgpu.hpp>

#include "bench_alloc_trace.hpp"
#include "bench_util.hpp"
#include "raw_opencl_device.hpp"

namespace xgpu::cli {
namespace {

using bench::Clock;
using bench::seconds_since;

constexpr std::size_t kKiB = 1024, kMiB = 1024 * kKiB;

// The driver's allocation through the OpenCL C API, in a context of its own.
class RawAllocator {
 public:
  explicit RawAllocator(const DeviceInfo& info) : raw_(info.platform_name, info.name) {}

  void alloc_free(std::size_t bytes, bool first_use) {
    cl_int status = CL_SUCCESS;
    cl_mem buffer = clCreateBuffer(raw_.context, CL_MEM_READ_WRITE, bytes, nullptr, &status);
    check_cl(status, "clCreateBuffer");
    if (first_use) {
      const unsigned char byte = 1;
      status = clEnqueueWriteBuffer(raw_.queue, buffer, CL_TRUE, 0, 1, &byte, 0, nullptr, nullptr);
    }
    clReleaseMemObject(buffer);
    check_cl(status, "clEnqueueWriteBuffer");
  }

 private:
  RawQueue raw_;
};

// Microseconds per call of `once`, `reps` samples of `batch` calls each, after one warm-up
// call (which may make the pool's first segment).
Samples per_call_us(const std::function<void()>& once, int reps, int batch) {
  once();
  Samples samples;
  for (int r = 0; r < reps; ++r) {
    auto t0 = Clock::now();
    for (int i = 0; i < batch; ++i) once();
    samples.values.push_back(seconds_since(t0) * 1e6 / batch);
  }
  return samples;
}

// A freed pooled buffer stays reserved; a direct one does not.
bool pools(const Context& context) {
  { auto probe = context.alloc<unsigned char>(1); }
  const bool pooled = context.memory_stats().reserved > 0;
  context.empty_cache();
  return pooled;
}

std::optional<RawAllocator> raw_allocator(const Device& device) {
  if (device.info().backend != "opencl") return std::nullopt;
  try {
    return std::optional<RawAllocator>(std::in_place, device.info());
  } catch (const std::exception&) {
    return std::nullopt;  // not reachable through the ICD loader: no driver baseline
  }
}

// A reused size, xgpu against the driver. Target: the pooled allocation alone at most 1/20 of
// the driver's and at most 1 us (median). Then both with a first use, and that use alone on a
// live buffer: what is left after subtracting it is the allocation's real cost.
void allocation(const Device& device, const BenchOptions& options, std::vector<Figure>& figures) {
  const Context context(device);
  Queue queue = context.queue();
  const bool pooled = pools(context);
  const std::string ours = pooled ? "pooled" : "xgpu direct";
  std::optional<RawAllocator> raw = raw_allocator(device);
  const int reps = bench::repetitions(options, 5, 21);
  for (std::size_t size = kKiB; size <= 64 * kMiB; size *= 16) {
    if (size > device.info().max_allocation) break;
    const std::string at = ", " + format_bytes(size);
    for (bool first_use : {false, true}) {
      const std::string what = first_use ? "alloc+write 1 B+free, " : "alloc+free, ";
      const int batch = first_use ? 20 : 200;
      Figure xgpu =
          bench::make_figure("memory", what + ours + at, "us",
                             per_call_us(
                                 [&] {
                                   auto buffer = context.alloc<unsigned char>(size);
                                   const unsigned char byte = 1;
                                   if (first_use)
                                     queue.write(buffer, &byte, 1);  // blocking, as the driver's
                                 },
                                 reps, batch));
      if (raw) {
        Figure driver =
            bench::make_figure("memory", what + "driver" + at, "us",
                               per_call_us([&] { raw->alloc_free(size, first_use); }, reps, batch));
        // The target is on the allocation alone; with its first use the ratio is
        // reported only: the 1-byte write costs the same to both and dominates.
        bench::compare_with(xgpu, driver, pooled && !first_use ? 1.0 / 20 : 0, true);
        figures.push_back(driver);
      }
      if (pooled && !first_use && xgpu.samples.median() > 1.0) {
        xgpu.met = false;
        xgpu.note = "median above 1 us";
      }
      figures.push_back(xgpu);
    }
    auto live = context.alloc<unsigned char>(size);
    const unsigned char byte = 1;
    figures.push_back(
        bench::make_figure("memory", "write 1 B to a live buffer" + at, "us",
                           per_call_us([&] { queue.write(live, &byte, 1); }, reps, 20)));
  }
}

void trace_replay(const Device& device, const BenchOptions& options, std::vector<Figure>& figures) {
  const Context context(device);
  const bench::TrainingStep step = bench::small_transformer(options.quick);
  bench::replay_training(context, step, 1);  // the first step fills the cache
  context.reset_peak_stats();
  auto t0 = Clock::now();
  const int steps = options.quick ? 2 : 5;
  const std::size_t events = bench::replay_training(context, step, steps);
  const double seconds = seconds_since(t0);
  const MemoryStats stats = context.memory_stats();
  Figure ratio =
      bench::make_figure("memory", "training step replay: peak reserved / allocated", "x");
  ratio.samples.values.push_back(static_cast<double>(stats.peak_reserved) /
                                 static_cast<double>(stats.peak_allocated));
  ratio.target = "<= 1.25";
  ratio.met = ratio.samples.median() <= 1.25;
  ratio.note = "peak allocated " + format_bytes(stats.peak_allocated) + ", peak reserved " +
               format_bytes(stats.peak_reserved);
  figures.push_back(ratio);
  Figure cost = bench::make_figure("memory", "training step replay: alloc or free", "us");
  cost.samples.values.push_back(seconds * 1e6 / static_cast<double>(events));
  figures.push_back(cost);
}

}  // namespace

void bench_allocator(const Device& device, const BenchOptions& options,
                     std::vector<Figure>& figures) {
  allocation(device, options, figures);
  trace_replay(device, options, figures);
}

}  // namespace xgpu::cli
