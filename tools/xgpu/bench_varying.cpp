// The varying-size figures of `xgpu bench dispatch`: a kernel launched with no work-group size
// and a global size that changes at every launch (a user kernel called on whatever data it is
// given), against the same launches at one fixed size, through xgpu and through the raw C API
// (a NULL local size: the driver picks). PoCL compiles a work-group function for each
// work-group size it runs a kernel with; picking a divisor of each new global size, it compiled
// at nearly every launch (workaround choose_local_size, xgpu/common/drivers/known_drivers.def).
// Also the growth of the process's resident memory over each side's launches.
#include <cstdio>
#include <string>
#include <xgpu/xgpu.hpp>

#include "bench.hpp"
#include "bench_util.hpp"
#include "raw_opencl_device.hpp"

namespace xgpu::cli {
namespace {

using bench::Clock;
using bench::seconds_since;

constexpr const char* kTouch = R"(
__kernel void touch(__global uint* x) { x[get_global_id(0)] += 1u; }
)";

// Distinct sizes with every power-of-two factor up to 2^9 among them (97 is odd).
std::size_t size_of(int launch) { return 4096 + 97 * static_cast<std::size_t>(launch); }

// The resident set in MiB (/proc/self/statm), 0 where unreadable.
double resident_mib() {
  std::FILE* file = std::fopen("/proc/self/statm", "r");
  if (!file) return 0;
  unsigned long pages = 0, resident = 0;
  const bool read = std::fscanf(file, "%lu %lu", &pages, &resident) == 2;
  std::fclose(file);
  return read ? static_cast<double>(resident) * 4096.0 / (1 << 20) : 0;
}

// The raw side: its own context, queue, kernel and buffer, launched with a NULL local size.
struct RawTouch : RawQueue {
  cl_kernel touch = nullptr;
  cl_mem buffer = nullptr;

  RawTouch(const DeviceInfo& info, std::size_t largest)
      : RawQueue(info.platform_name, info.name, kTouch, "-D XGPU_BENCH_NONCE=" + bench::nonce()) {
    touch = kernel("touch");
    cl_int status = CL_SUCCESS;
    buffer = clCreateBuffer(context, CL_MEM_READ_WRITE, largest * 4, nullptr, &status);
    check_cl(status, "clCreateBuffer");
    check_cl(clSetKernelArg(touch, 0, sizeof buffer, &buffer), "clSetKernelArg");
  }
  ~RawTouch() {
    clReleaseMemObject(buffer);
    clReleaseKernel(touch);
  }
  void launch(std::size_t size) {
    check_cl(clEnqueueNDRangeKernel(queue, touch, 1, nullptr, &size, nullptr, 0, nullptr, nullptr),
             "clEnqueueNDRangeKernel");
  }
  void finish() { check_cl(clFinish(queue), "clFinish"); }
};

// Nanoseconds per launch of `count` launches, then one finish; the resident growth in `grown`.
template <class Launch, class Finish>
double timed(int count, Launch&& launch, Finish&& finish, double& grown) {
  const double before = resident_mib();
  const auto started = Clock::now();
  for (int i = 0; i < count; ++i) launch(i);
  finish();
  const double seconds = seconds_since(started);
  grown = resident_mib() - before;
  return seconds * 1e9 / count;
}

std::string grown_note(double mib) {
  char text[64];
  std::snprintf(text, sizeof text, "resident memory %+.1f MiB over the launches", mib);
  return text;
}

}  // namespace

void bench_varying_sizes(const Device& device, const BenchOptions& options,
                         std::vector<Figure>& figures) {
  // The raw side compiles at most launches, each a compile on PoCL: few launches, one round.
  const int launches = options.quick ? 20 : 200;
  Context context(device);
  Queue queue = context.queue();
  Kernel touch =
      context.build(Source{"bench_varying.cl", kTouch}, "-D XGPU_BENCH_NONCE=" + bench::nonce())
          .kernel("touch");
  Buffer<std::uint32_t> target = context.alloc<std::uint32_t>(size_of(launches));
  auto finish = [&] { queue.finish(); };
  auto fixed = [&](int) { queue.submit(touch, Range{size_of(0)}, target); };
  auto varying = [&](int i) { queue.submit(touch, Range{size_of(i)}, target); };
  RawTouch raw(device.info(), size_of(launches));
  auto raw_varying = [&](int i) { raw.launch(size_of(i)); };
  auto raw_finish = [&] { raw.finish(); };
  double ignored = 0, grown_fixed = 0, grown_varying = 0, grown_raw = 0;
  timed(launches, fixed, finish, ignored);  // the one shape compiled: warm-up, not counted
  bench::settle(queue);
  Samples s_fixed{{timed(launches, fixed, finish, grown_fixed)}};
  Samples s_varying{{timed(launches, varying, finish, grown_varying)}};
  Samples s_raw{{timed(launches, raw_varying, raw_finish, grown_raw)}};

  const std::string s = "dispatch";
  Figure f_fixed =
      bench::make_figure(s, "no work-group size, one global size, xgpu submit", "ns", s_fixed);
  f_fixed.note = grown_note(grown_fixed);
  Figure f_varying = bench::make_figure(
      s, "no work-group size, a new global size each launch, xgpu submit", "ns", s_varying);
  bench::compare_with(f_varying, f_fixed, 0, true);
  f_varying.note = std::to_string(launches) + " sizes from " + std::to_string(size_of(0)) +
                   ", first launches of each shape included; " + grown_note(grown_varying);
  Figure f_raw = bench::make_figure(
      s, "no work-group size, a new global size each launch, raw (NULL local size)", "ns", s_raw);
  bench::compare_with(f_raw, f_fixed, 0, true);
  f_raw.note = "the driver picks each work-group size; " + grown_note(grown_raw);
  for (Figure* f : {&f_fixed, &f_varying, &f_raw}) figures.push_back(std::move(*f));
}

}  // namespace xgpu::cli
