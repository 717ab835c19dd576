// The device-to-device copy of the `multi` suite: Queue::copy of 256 MiB from the group's
// device 0 to its device 1 (a peer copy between CUDA devices; from a device whose memory is
// host memory, mapped; else staged through pinned host memory), against the slower
// of device 0's read and device 1's write bandwidth through pinned memory, and beside the
// naive way: a blocking read into host memory, then a blocking write. Rounds interleave the
// three, and each ratio is the median of the rounds' own (a shared machine's load weighs on
// both sides of a round alike); every copy is checked.
#include <algorithm>
#include <cstdint>
#include <string>
#include <xgpu/device_group.hpp>
#include <xgpu/extension.hpp>
#include <xgpu/xgpu.hpp>

#include "bench.hpp"
#include "bench_util.hpp"

namespace xgpu::cli {
namespace {

using bench::Clock;
using bench::seconds_since;

double gb_per_s(std::size_t bytes, double seconds) { return bytes / seconds / 1e9; }

void check(Queue& queue, const Buffer<std::uint32_t>& buffer, std::uint32_t round,
           const char* what) {
  const std::vector<std::uint32_t> got = queue.read(buffer);
  for (std::size_t i = 0; i < got.size(); i += 4099) {
    if (got[i] != static_cast<std::uint32_t>(i) + round)
      throw Error(Errc::backend,
                  std::string("bench multi: the ") + what + " copied element " + std::to_string(i) +
                      " wrong",
                  "bench");
  }
  if (got.back() != static_cast<std::uint32_t>(got.size() - 1) + round)
    throw Error(Errc::backend, std::string("bench multi: the ") + what + " copy is short", "bench");
}

}  // namespace

void bench_device_copy(DeviceGroup& group, const BenchOptions& options,
                       std::vector<Figure>& figures) {
  if (group.size() < 2) return;  // nothing to copy between
  const int reps = bench::repetitions(options, 3, 7);
  std::size_t bytes = options.quick ? std::size_t(16) << 20 : std::size_t(256) << 20;
  bytes = std::min<std::size_t>(
      {bytes, group[0].device.info().max_allocation, group[1].device.info().max_allocation});
  const std::size_t count = bytes / sizeof(std::uint32_t);
  bytes = count * sizeof(std::uint32_t);
  Queue from = group[0].queue, to = group[1].queue;
  auto src = from.context().alloc<std::uint32_t>(count);
  auto dst = to.context().alloc<std::uint32_t>(count);
  HostBuffer<std::uint32_t> pinned_from = from.context().alloc_host<std::uint32_t>(count);
  HostBuffer<std::uint32_t> pinned_to = to.context().alloc_host<std::uint32_t>(count);
  std::vector<std::uint32_t> naive(count);

  Samples slower_side, copy, read_write;
  for (int r = -1; r < reps; ++r) {  // round -1 warms every path up, and is not kept
    const auto round = static_cast<std::uint32_t>(r + 1);
    // Each device's own pinned memory: device 1 writes from it, device 0 reads into it.
    for (std::size_t i = 0; i < count; ++i) pinned_to[i] = static_cast<std::uint32_t>(i) + round;
    auto t0 = Clock::now();
    to.write_async(dst, pinned_to).wait();
    const double write = gb_per_s(bytes, seconds_since(t0));
    from.write(src, pinned_to.data(), count);
    t0 = Clock::now();
    from.read_async(src, pinned_from).wait();
    const double read = gb_per_s(bytes, seconds_since(t0));

    to.fill(dst, 0u);
    to.finish();
    t0 = Clock::now();
    to.copy(src, dst);
    to.finish();
    const double copied = gb_per_s(bytes, seconds_since(t0));
    check(to, dst, round, "device-to-device");

    to.fill(dst, 0u);
    to.finish();
    t0 = Clock::now();
    from.read(src, naive.data());
    to.write(dst, naive.data());
    const double naively = gb_per_s(bytes, seconds_since(t0));
    check(to, dst, round, "read-then-write");
    if (r < 0) continue;
    slower_side.values.push_back(std::min(read, write));
    copy.values.push_back(copied);
    read_write.values.push_back(naively);
  }

  const std::string what = format_bytes(bytes) + ", device 0 to device 1";
  Figure baseline = bench::make_figure(
      "multi", "min(read of device 0, write of device 1), pinned, " + format_bytes(bytes), "GB/s",
      slower_side);
  figures.push_back(baseline);
  Figure copied = bench::make_figure("multi", "Queue::copy " + what, "GB/s", copy);
  bench::compare_paired(copied, baseline, 0.8, false);
  // Which way Queue::copy took (runtime/src/copy_across.cpp chooses in this order).
  const DeviceInfo& source = group[0].device.info();
  copied.note = source.backend == "cuda" && group[1].device.info().backend == "cuda"
                    ? "a peer copy (cuMemcpyPeerAsync)"
                : ext::shares_host_memory(source)
                    ? "the source's memory is host memory: mapped and written from, one pass"
                    : "staged through pinned host memory, reads overlapping writes";
  figures.push_back(std::move(copied));
  Figure naive_figure =
      bench::make_figure("multi", "read then write through the host, " + what, "GB/s", read_write);
  bench::compare_paired(naive_figure, baseline, 0, false);
  naive_figure.note =
      "blocking read into ordinary memory, then a blocking write: the way "
      "without Queue::copy";
  figures.push_back(std::move(naive_figure));
}

}  // namespace xgpu::cli
