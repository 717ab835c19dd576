// `xgpu bench mpi`, run under mpirun (`xgpu bench mpi` execs this program, xgpu-bench-mpi, so
// that the `xgpu` command itself links no MPI): xgpu's allreduce of a device buffer through each
// transport beside MPI_Allreduce on host buffers of the same size, in the same run, rounds
// interleaved (each round in another order). Each figure is the slowest rank's time (the collective
// ends when its last rank does), the median over the rounds; bus bandwidth is 2 (n - 1) / n * bytes
// / time, the bytes each rank's link carries in a ring allreduce. Every xgpu result is checked
// first.
//
//   mpirun -np 2 xgpu bench mpi [-d SELECTOR] [--quick] [--repetitions N]
//   (the staged chunk: XGPU_MPI_CHUNK; xgpu-bench-mpi itself also takes --chunk LIST, one staged
//   case per chunk of the comma-separated list, all in the same rounds: 256K,1M,4M)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>
#include <xgpu/cache.hpp>
#include <xgpu/extension.hpp>
#include <xgpu/mpi.hpp>
#include <xgpu/xgpu.hpp>

namespace {

namespace mpi = xgpu::mpi;
using Clock = std::chrono::steady_clock;

struct Options {
  std::string device;
  bool quick = false;
  int repetitions = 0;
  std::vector<std::size_t> chunks;  // empty: XGPU_MPI_CHUNK's
};

// One measured case: its rounds' times in seconds (the slowest rank's).
struct Case {
  Case(std::string case_name, std::function<void()> body)
      : name(std::move(case_name)), run(std::move(body)) {}
  std::string name;
  std::function<void()> run;
  std::vector<double> times;
  const Case* baseline = nullptr;
  double target = 0;            // the largest ratio to the baseline allowed, 0: none
  std::size_t target_from = 0;  // the target applies from this size on
  bool collective = true;       // false for a floor: no bus bandwidth
};

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t mid = values.size() / 2;
  return values.size() % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

// The median of the rounds' own ratios: what the machine did in one stretch weighs on both.
double paired_ratio(const Case& c) {
  std::vector<double> ratios;
  for (std::size_t i = 0; i < c.times.size(); ++i)
    ratios.push_back(c.times[i] / c.baseline->times[i]);
  return median(ratios);
}

// `count` floats of page-aligned host memory.
class HostFloats {
 public:
  HostFloats(std::size_t count, float value)
      : data_(static_cast<float*>(
            std::aligned_alloc(4096, (count * sizeof(float) + 4095) / 4096 * 4096))),
        count_(count) {
    if (!data_) throw std::runtime_error("out of host memory");
    fill(value);
  }
  ~HostFloats() { std::free(data_); }
  HostFloats(const HostFloats&) = delete;
  HostFloats& operator=(const HostFloats&) = delete;
  float* data() const { return data_; }
  void fill(float value) { std::fill(data_, data_ + count_, value); }

 private:
  float* data_;
  std::size_t count_;
};

double timed(const std::function<void()>& run) {
  MPI_Barrier(MPI_COMM_WORLD);
  const auto start = Clock::now();
  run();
  double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  MPI_Allreduce(MPI_IN_PLACE, &seconds, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return seconds;
}

std::string size_text(std::size_t bytes) {
  return bytes >= (1u << 20) ? std::to_string(bytes >> 20) + " MiB"
                             : std::to_string(bytes >> 10) + " KiB";
}

Options parse(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw std::runtime_error(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "-d" || arg == "--device") {
      options.device = value();
    } else if (arg == "--quick") {
      options.quick = true;
    } else if (arg == "--repetitions") {
      options.repetitions = std::stoi(value());
    } else if (arg == "--chunk") {
      const std::string list = value();
      for (std::size_t begin = 0; begin <= list.size();) {
        std::size_t end = list.find(',', begin);
        if (end == std::string::npos) end = list.size();
        options.chunks.push_back(xgpu::cache::parse_size(list.substr(begin, end - begin)));
        begin = end + 1;
      }
    } else {
      throw std::runtime_error("unknown option '" + arg +
                               "' (options: -d SELECTOR, --quick, --repetitions N, --chunk LIST)");
    }
  }
  return options;
}

// Checks one allreduce through `comm` of rank-dependent values against the exact sum.
void check(xgpu::Queue& queue, const mpi::Comm& comm, std::size_t count) {
  std::vector<float> values(count);
  for (std::size_t i = 0; i < count; ++i) values[i] = float(i % 7 + comm.rank());
  auto buffer = queue.context().alloc<float>(count);
  queue.write(buffer, values);
  mpi::allreduce(queue, buffer, mpi::Op::sum, comm);
  const std::vector<float> got = queue.read(buffer);
  const int n = comm.size();
  for (std::size_t i = 0; i < count; ++i) {
    if (got[i] != float(n * (i % 7) + n * (n - 1) / 2))
      throw std::runtime_error("bench mpi: wrong allreduce result through " +
                               std::string(mpi::to_string(comm.transport())));
  }
}

int run(const Options& options) {
  const mpi::Comm world = mpi::Comm::world();
  const int rank = world.rank(), ranks = world.size();
  xgpu::Context context(mpi::select_device(world, options.device));
  xgpu::Queue queue = context.queue();
  // NCCL's figure where every rank's device can use it (a cuda-module device, libnccl there).
  int nccl = mpi::transport_for(context.device()) == mpi::Transport::nccl ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &nccl, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  const mpi::Comm through_nccl = world.with_transport(mpi::Transport::automatic);
  mpi::Comm mapped = world.with_transport(mpi::Transport::mapped);
  // One staged Comm per chunk measured (one: XGPU_MPI_CHUNK's).
  std::vector<std::pair<std::string, mpi::Comm>> staged;
  const mpi::Comm staged_default = world.with_transport(mpi::Transport::staged);
  if (options.chunks.empty()) staged.emplace_back("xgpu allreduce, staged", staged_default);
  for (std::size_t chunk : options.chunks) {
    staged.emplace_back("xgpu allreduce, staged, " + size_text(chunk) + " chunks",
                        staged_default.with_chunk(chunk));
  }
  const std::vector<std::size_t> sizes =
      options.quick
          ? std::vector<std::size_t>{1u << 20, 4u << 20}
          : std::vector<std::size_t>{256u << 10, 1u << 20, 4u << 20, 16u << 20, 64u << 20};
  const int repetitions = options.repetitions > 0 ? options.repetitions : options.quick ? 5 : 15;
  if (rank == 0) {
    std::printf("xgpu bench mpi: %d rank(s); rank 0 on %s; %d rounds\n", ranks,
                context.device().describe().c_str(), repetitions);
    std::printf("%-8s %-40s %10s %10s %7s %8s %4s\n", "bytes", "case", "ms", "bus GB/s", "ratio",
                "target", "met");
  }
  bool all_met = true;
  for (const std::size_t bytes : sizes) {
    const std::size_t count = bytes / sizeof(float);
    check(queue, mapped, count);
    for (const auto& [name, comm] : staged) check(queue, comm, count);
    if (nccl) check(queue, through_nccl, count);
    // Page-aligned, as the device's memory is: MPI's reduction runs at the same alignment on
    // both sides (malloc's large blocks start 16 bytes into a page).
    HostFloats host(count, 1.0f), send(count, 1.0f), recv(count, 0.0f);
    auto buffer = context.alloc<float>(count);
    queue.fill(buffer, 1.0f);
    queue.finish();
    const int n = static_cast<int>(count);
    std::vector<Case> cases;
    cases.reserve(6 + staged.size());  // baselines are pointers into it
    Case& in_place = cases.emplace_back("MPI_Allreduce, host, in place", [&] {
      MPI_Allreduce(MPI_IN_PLACE, host.data(), n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
    });
    Case& through_mapped = cases.emplace_back(
        "xgpu allreduce, mapped", [&] { mpi::allreduce(queue, buffer, mpi::Op::sum, mapped); });
    through_mapped.baseline = &in_place;
    through_mapped.target = 1.15;
    through_mapped.target_from = 1u << 20;
    Case& out_of_place = cases.emplace_back("MPI_Allreduce, host, out of place", [&] {
      MPI_Allreduce(send.data(), recv.data(), n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
    });
    for (const auto& [name, comm] : staged) {
      Case& through_staged = cases.emplace_back(
          name, [&, comm = comm] { mpi::allreduce(queue, buffer, mpi::Op::sum, comm); });
      through_staged.baseline = &out_of_place;
      through_staged.target = 1.5;
      through_staged.target_from = 4u << 20;
    }
    // The floors: what each transport adds to MPI's own time, alone. mapped: a map (waited for)
    // and an unmap (enqueued) of the buffer; staged: the buffer's bytes to pinned host memory
    // and back, which the transport overlaps with MPI's calls chunk by chunk.
    auto pinned = context.alloc_host<float>(count);
    cases
        .emplace_back("floor: map + unmap of the buffer",
                      [&] {
                        float* pointer = nullptr;
                        xgpu::ext::map_async(queue, buffer, count,
                                             xgpu::ext::host_read | xgpu::ext::host_write, pointer)
                            .wait();
                        xgpu::ext::unmap_async(queue, buffer, pointer);
                        queue.flush();
                      })
        .collective = false;
    cases
        .emplace_back("floor: device -> pinned -> device",
                      [&] {
                        queue.read_async(buffer, pinned);
                        queue.write_async(buffer, pinned).wait();
                      })
        .collective = false;
    if (nccl) {
      cases
          .emplace_back("xgpu allreduce, nccl",
                        [&] { mpi::allreduce(queue, buffer, mpi::Op::sum, through_nccl); })
          .baseline = &in_place;
    }
    for (Case& c : cases) c.run();  // warm: first-touch pages, staging blocks, MPI's buffers
    for (int round = 0; round < repetitions; ++round) {
      // Each round starts at another case, so that none always follows the same neighbour.
      for (std::size_t k = 0; k < cases.size(); ++k) {
        Case& c = cases[(k + round) % cases.size()];
        c.times.push_back(timed(c.run));
      }
      // Sums of sums grow; start each round from ones again (untimed).
      host.fill(1.0f);
      queue.fill(buffer, 1.0f);
      queue.finish();
    }
    if (rank != 0) continue;
    for (const Case& c : cases) {
      const double seconds = median(c.times);
      char bus[16] = "-";
      if (c.collective && ranks > 1)
        std::snprintf(bus, sizeof bus, "%.2f",
                      2.0 * (ranks - 1) / ranks * double(bytes) / seconds / 1e9);
      std::string ratio = "", target = "", met = "";
      if (c.baseline) {
        const double r = paired_ratio(c);
        char text[16];
        std::snprintf(text, sizeof text, "%.2f", r);
        ratio = text;
        if (bytes >= c.target_from) {
          std::snprintf(text, sizeof text, "<= %.2f", c.target);
          target = text;
          met = r <= c.target ? "yes" : "NO";
          all_met &= r <= c.target;
        }
      }
      std::printf("%-8s %-40s %10.3f %10s %7s %8s %4s\n", size_text(bytes).c_str(), c.name.c_str(),
                  seconds * 1e3, bus, ratio.c_str(), target.c_str(), met.c_str());
    }
  }
  if (rank == 0 && !all_met) std::printf("some targets were not met (see the 'met' column)\n");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  mpi::Env env(argc, argv);
  try {
    return run(parse(argc, argv));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "xgpu bench mpi: error: %s\n", e.what());
    MPI_Abort(MPI_COMM_WORLD, 1);
    return 1;
  }
}
