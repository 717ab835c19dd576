// The `dispatch` suite of `xgpu bench`: what one kernel launch costs through xgpu against the
// raw OpenCL C API on the same device, in the same process. The raw side makes its own
// context, in-order queue and kernels with the C API (found by platform and device name), and
// the two take turns round by round, in pairs, so that drift on a shared machine hits both
// alike: a ratio is the median of the pairs' own ratios.
#include <ctime>
#include <string>
#include <xgpu/xgpu.hpp>

#include "bench_util.hpp"
#include "raw_opencl_device.hpp"

namespace xgpu::cli {
namespace {

using bench::Clock;
using bench::seconds_since;

constexpr const char* kSource = R"(
__kernel void empty(void) {}
__kernel void eight(__global float* a, __global float* b, int c, int d, float e, float f,
                    uint g, __global float* h) {
  if (get_global_id(0) == 1000000) a[0] = b[0] + h[0] + c + d + e + f + g;
}
)";

// The raw baseline: the same device through the OpenCL C API, nothing of xgpu in between.
struct Raw : RawQueue {
  cl_kernel empty = nullptr, eight = nullptr;
  cl_mem buffers[3] = {};

  Raw(const DeviceInfo& info, const std::string& options)
      : RawQueue(info.platform_name, info.name, kSource, options) {
    empty = kernel("empty");
    eight = kernel("eight");
    for (cl_mem& buffer : buffers) {
      cl_int status = CL_SUCCESS;
      buffer = clCreateBuffer(context, CL_MEM_READ_WRITE, 64, nullptr, &status);
      check_cl(status, "clCreateBuffer");
    }
  }
  ~Raw() {
    for (cl_mem buffer : buffers) clReleaseMemObject(buffer);
    clReleaseKernel(eight);
    clReleaseKernel(empty);
  }

  void launch_empty(bool with_event) {
    const std::size_t one = 1;
    cl_event event = nullptr;
    check_cl(clEnqueueNDRangeKernel(queue, empty, 1, nullptr, &one, nullptr, 0, nullptr,
                                    with_event ? &event : nullptr),
             "clEnqueueNDRangeKernel");
    if (event) clReleaseEvent(event);
  }
  void launch_eight(int i) {
    const std::size_t one = 1;
    cl_int c = i, d = 2;
    cl_float e = 3, f = 4;
    cl_uint g = 5;
    clSetKernelArg(eight, 0, sizeof(cl_mem), &buffers[0]);
    clSetKernelArg(eight, 1, sizeof(cl_mem), &buffers[1]);
    clSetKernelArg(eight, 2, sizeof c, &c);
    clSetKernelArg(eight, 3, sizeof d, &d);
    clSetKernelArg(eight, 4, sizeof e, &e);
    clSetKernelArg(eight, 5, sizeof f, &f);
    clSetKernelArg(eight, 6, sizeof g, &g);
    clSetKernelArg(eight, 7, sizeof(cl_mem), &buffers[2]);
    check_cl(clEnqueueNDRangeKernel(queue, eight, 1, nullptr, &one, nullptr, 0, nullptr, nullptr),
             "clEnqueueNDRangeKernel");
  }
  void finish() { check_cl(clFinish(queue), "clFinish"); }
};

// Nanoseconds per launch of `count` launches back to back, then one finish.
template <class Launch, class Finish>
double back_to_back(int count, Launch&& launch, Finish&& finish) {
  auto started = Clock::now();
  for (int i = 0; i < count; ++i) launch(i);
  finish();
  return seconds_since(started) * 1e9 / count;
}

// Nanoseconds of the calling thread's own CPU time per launch, over `count` launches (the
// finish after them is not counted). On a shared machine the wall clock of a launch mostly
// measures who else had the core (medians several times the fastest round); the thread's CPU
// time leaves the time off the core out, though not the caches and core shared with others
// (its medians still spread; callgrind's instruction counts are what repeat, see
// docs/BENCHMARKS.md).
template <class Launch, class Finish>
double thread_cpu_per_launch(int count, Launch&& launch, Finish&& finish) {
  auto cpu_now = [] {
    timespec now{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return static_cast<double>(now.tv_sec) * 1e9 + static_cast<double>(now.tv_nsec);
  };
  const double started = cpu_now();
  for (int i = 0; i < count; ++i) launch(i);
  const double spent = cpu_now() - started;
  finish();
  return spent / count;
}

// Appends the microseconds of each of `count` launch + finish pairs.
template <class Launch, class Finish>
void latency(int count, Samples& samples, Launch&& launch, Finish&& finish) {
  for (int i = 0; i < count; ++i) {
    auto started = Clock::now();
    launch(i);
    finish();
    samples.values.push_back(seconds_since(started) * 1e6);
  }
}

}  // namespace

void bench_dispatch(const Device& device, const BenchOptions& options,
                    std::vector<Figure>& figures) {
  // Rounds of `per_round` launches each; the medians below are over rounds (back to back)
  // and over single launches (latency): >= 10,000 launches each way unless --quick. One
  // pair's ratio spreads far wider than 5 % on a shared machine: 60 pairs keep the median's
  // run-to-run spread near the 5 % a target resolves.
  const int rounds = bench::repetitions(options, 10, 60);
  const int per_round = options.quick ? 100 : 1000;

  // First calls: a nonce in the options keeps every kernel cache out, and an untimed raw
  // build first pays the compiler's one-time start, which neither side should carry. It
  // stays alive through both: PoCL tears its compiler down when its last program goes,
  // and whichever side came next would pay the start again.
  Raw warm_up(device.info(), "-D XGPU_BENCH_NONCE=" + bench::nonce());
  warm_up.finish();
  auto started = Clock::now();
  Context context(device);
  Queue queue = context.queue();
  Program program =
      context.build(Source{"bench_dispatch.cl", kSource}, "-D XGPU_BENCH_NONCE=" + bench::nonce());
  Kernel empty = program.kernel("empty"), eight = program.kernel("eight");
  queue.launch(empty, Range{1});
  queue.finish();
  Samples first_xgpu{{seconds_since(started) * 1e3}};
  started = Clock::now();
  Raw raw(device.info(), "-D XGPU_BENCH_NONCE=" + bench::nonce());
  raw.launch_empty(false);
  raw.finish();
  Samples first_raw{{seconds_since(started) * 1e3}};
  auto a = context.alloc<float>(16), b = context.alloc<float>(16), h = context.alloc<float>(16);

  auto xgpu_empty = [&](int) { queue.launch(empty, Range{1}); };
  auto xgpu_empty_submit = [&](int) { queue.submit(empty, Range{1}); };
  auto xgpu_eight = [&](int i) { queue.launch(eight, Range{1}, a, b, i, 2, 3.0f, 4.0f, 5u, h); };
  auto xgpu_eight_submit = [&](int i) {
    queue.submit(eight, Range{1}, a, b, i, 2, 3.0f, 4.0f, 5u, h);
  };
  auto xgpu_finish = [&] { queue.finish(); };
  auto raw_empty = [&](int) { raw.launch_empty(false); };
  auto raw_empty_event = [&](int) { raw.launch_empty(true); };
  auto raw_eight = [&](int i) { raw.launch_eight(i); };
  auto raw_finish = [&] { raw.finish(); };

  // Warm-up, never counted.
  back_to_back(per_round, xgpu_empty, xgpu_finish);
  back_to_back(per_round, raw_empty, raw_finish);
  back_to_back(per_round, xgpu_eight, xgpu_finish);
  back_to_back(per_round, raw_eight, raw_finish);
  bench::settle(queue);

  Samples b2b_xgpu, b2b_submit, b2b_raw, b2b_raw_event, lat_xgpu, lat_raw, args_xgpu, args_submit,
      args_raw, cpu_raw, cpu_submit, cpu_args_raw, cpu_args_submit;
  for (int round = 0; round < rounds; ++round) {
    // Each pair back to back, the side that goes first changing every round.
    const auto pair = [first_raw = round % 2 == 1](auto&& ours, auto&& theirs) {
      if (first_raw) theirs();
      ours();
      if (!first_raw) theirs();
    };
    pair([&] { b2b_xgpu.values.push_back(back_to_back(per_round, xgpu_empty, xgpu_finish)); },
         [&] {
           b2b_raw_event.values.push_back(back_to_back(per_round, raw_empty_event, raw_finish));
         });
    pair(
        [&] {
          b2b_submit.values.push_back(back_to_back(per_round, xgpu_empty_submit, xgpu_finish));
        },
        [&] { b2b_raw.values.push_back(back_to_back(per_round, raw_empty, raw_finish)); });
    pair([&] { latency(per_round, lat_xgpu, xgpu_empty_submit, xgpu_finish); },
         [&] { latency(per_round, lat_raw, raw_empty, raw_finish); });
    args_xgpu.values.push_back(back_to_back(per_round, xgpu_eight, xgpu_finish));
    pair(
        [&] {
          args_submit.values.push_back(back_to_back(per_round, xgpu_eight_submit, xgpu_finish));
        },
        [&] { args_raw.values.push_back(back_to_back(per_round, raw_eight, raw_finish)); });
    pair(
        [&] {
          cpu_submit.values.push_back(
              thread_cpu_per_launch(per_round, xgpu_empty_submit, xgpu_finish));
        },
        [&] { cpu_raw.values.push_back(thread_cpu_per_launch(per_round, raw_empty, raw_finish)); });
    pair(
        [&] {
          cpu_args_submit.values.push_back(
              thread_cpu_per_launch(per_round, xgpu_eight_submit, xgpu_finish));
        },
        [&] {
          cpu_args_raw.values.push_back(thread_cpu_per_launch(per_round, raw_eight, raw_finish));
        });
  }

  const std::string s = "dispatch";
  Figure f_raw = bench::make_figure(s, "first call: context, build, launch, raw", "ms", first_raw);
  Figure f_xgpu =
      bench::make_figure(s, "first call: context, build, launch, xgpu", "ms", first_xgpu);
  bench::compare_with(f_xgpu, f_raw, 0, true);
  // Each xgpu form against the raw call doing the same work: Queue::launch returns an Event,
  // so it is held to a raw launch that asks for one; Queue::submit (no Event) and the
  // latency (submit then finish) to the raw launch without.
  constexpr double kTarget = 1.05;
  Figure b_raw = bench::make_figure(s, "empty launch, back to back, raw", "ns", b2b_raw);
  Figure b_event =
      bench::make_figure(s, "empty launch, back to back, raw with event", "ns", b2b_raw_event);
  bench::compare_with(b_event, b_raw, 0, true);
  Figure b_xgpu = bench::make_figure(s, "empty launch, back to back, xgpu", "ns", b2b_xgpu);
  bench::compare_paired(b_xgpu, b_event, kTarget, true);
  b_xgpu.note = "per launch, " + std::to_string(per_round) +
                " launches then one finish; Queue::launch (an Event) against raw with event";
  Figure b_submit =
      bench::make_figure(s, "empty launch, back to back, xgpu submit", "ns", b2b_submit);
  bench::compare_paired(b_submit, b_raw, kTarget, true);
  b_submit.note = "Queue::submit: no Event, against raw without one";
  Figure l_raw = bench::make_figure(s, "launch + finish latency, raw", "us", lat_raw);
  Figure l_xgpu = bench::make_figure(s, "launch + finish latency, xgpu", "us", lat_xgpu);
  bench::compare_with(l_xgpu, l_raw, kTarget, true);
  l_xgpu.note = "Queue::submit then Queue::finish, against the raw launch then clFinish";
  Figure a_raw = bench::make_figure(s, "8-argument launch, raw clSetKernelArg x8", "ns", args_raw);
  Figure a_xgpu = bench::make_figure(s, "8-argument launch, xgpu", "ns", args_xgpu);
  bench::compare_with(a_xgpu, a_raw, 0, true);
  Figure a_submit = bench::make_figure(s, "8-argument launch, xgpu submit", "ns", args_submit);
  bench::compare_paired(a_submit, a_raw, kTarget, true);
  Figure c_raw = bench::make_figure(s, "empty launch, launching thread's CPU, raw", "ns", cpu_raw);
  Figure c_submit =
      bench::make_figure(s, "empty launch, launching thread's CPU, xgpu submit", "ns", cpu_submit);
  bench::compare_paired(c_submit, c_raw, kTarget, true);
  c_submit.note =
      "CPU time of the launching thread only: leaves out time off the core, not the "
      "cache and core it shares";
  Figure ca_raw =
      bench::make_figure(s, "8-argument launch, launching thread's CPU, raw", "ns", cpu_args_raw);
  Figure ca_submit = bench::make_figure(s, "8-argument launch, launching thread's CPU, xgpu submit",
                                        "ns", cpu_args_submit);
  bench::compare_paired(ca_submit, ca_raw, kTarget, true);
  for (Figure* f : {&f_raw, &f_xgpu, &b_raw, &b_event, &b_xgpu, &b_submit, &l_raw, &l_xgpu, &a_raw,
                    &a_xgpu, &a_submit, &c_raw, &c_submit, &ca_raw, &ca_submit}) {
    figures.push_back(std::move(*f));
  }
  bench_varying_sizes(device, options, figures);
}

}  // namespace xgpu::cli
