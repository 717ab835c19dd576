// xgpu-cache-client: a small program of the kind the kernel cache serves, run many times
// by check_cache.py. It builds two programs on the device XGPU_DEVICE selects: the
// embedded elementwise.cl, and a kernel of its own built with -DOFFSET=<value> (so clients
// given different values build different programs), launches them with a 1-D and a 2-D
// work-group size, and checks every result exactly against the host.
//
//   xgpu-cache-client [--offset N] [--seconds S] [--stats]
//     prints "ok" and exits 0, or says what differed (1); any xgpu::Error exits 2.
//     --seconds S: runs rounds, each in a new context (so each build asks the disk cache
//       again), until S seconds have passed; for the stress tests, which change the cache
//       under it. --stats: flushes pending saves and prints xgpu::cache_stats() and the
//       number of rounds on one line, "stats rounds=R hits=H misses=M ...", before "ok".
//     --stall-write: writes the first half of its first cache entry's temporary file, flushes
//       it and waits forever, for the test to kill it in the middle of a write.
//     --counters-delay-ms N: sleeps N ms between reading and rewriting the counters file, so
//       that concurrent clients surely overlap there and an update lost without the lock shows.
// It links the core's objects, not libxgpu, to install those two seams of the cache
// (runtime/src/cache/test_hooks.hpp), which nothing installed can switch on.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <thread>
#include <vector>
#include <xgpu/xgpu.hpp>

#include "cache/test_hooks.hpp"

namespace {

long g_counters_delay_ms = 0;

void stall_mid_write(int fd, const std::string& bytes) {
  const std::size_t half = bytes.size() / 2;
  std::size_t done = 0;
  while (done < half) {
    const ssize_t put = ::write(fd, bytes.data() + done, half - done);
    if (put <= 0) break;
    done += static_cast<std::size_t>(put);
  }
  fsync(fd);
  std::cerr << "xgpu-cache-client: stalled after " << done << " of " << bytes.size()
            << " bytes of an entry, for a test" << std::endl;
  while (true) pause();  // until a signal ends the process
}

void delay_counters_update() {
  std::this_thread::sleep_for(std::chrono::milliseconds(g_counters_delay_ms));
}

// Integer results: exact on every device. OFFSET comes from the build options.
const char* const kMix =
    "kernel void client_mix(global const int* in, global int* out, uint width) {\n"
    "  const size_t x = get_global_id(0), y = get_global_id(1);\n"
    "  const size_t at = y * width + x;\n"
    "  out[at] = 3 * in[at] + OFFSET + (int)(x ^ y) + (int)get_local_id(1);\n"
    "}\n";

// Counts the elements that differ, printing the first few.
template <class T>
std::size_t compare(const char* what, const std::vector<T>& got, const std::vector<T>& want) {
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    if (got[i] == want[i]) continue;
    if (++wrong <= 5) {
      std::cout << what << "[" << i << "] = " << got[i] << ", expected " << want[i] << '\n';
    }
  }
  if (wrong) std::cout << what << ": " << wrong << " of " << want.size() << " elements differ\n";
  return wrong;
}

// y = a*x + y, then y *= s: small integers in floats, so every result is exact.
std::size_t run_elementwise(const xgpu::Context& context, xgpu::Queue& queue) {
  const unsigned n = 200;  // not a multiple of the work-group: the kernels' bound check works
  const std::size_t global = 256, local = 16;
  std::vector<float> x(n), y(n);
  for (unsigned i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i % 17);
    y[i] = static_cast<float>(i % 5);
  }
  xgpu::Buffer<float> dx = context.alloc<float>(n), dy = context.alloc<float>(n);
  queue.write(dx, x);
  queue.write(dy, y);
  xgpu::Program program = context.build(xgpu::kernels::source("elementwise.cl"));
  queue.launch(program.kernel("xgpu_axpy_f32"), xgpu::Range{global}, xgpu::Range{local}, n, 2.0f,
               dx, dy);
  queue.launch(program.kernel("xgpu_scale_f32"), xgpu::Range{global}, xgpu::Range{local * 2}, n,
               -3.0f, dy);
  std::vector<float> want(n);
  for (unsigned i = 0; i < n; ++i) want[i] = (2.0f * x[i] + y[i]) * -3.0f;
  return compare("elementwise", queue.read(dy), want);
}

std::size_t run_mix(const xgpu::Context& context, xgpu::Queue& queue, int offset) {
  const unsigned width = 16, height = 8;
  const std::size_t local_x = 4, local_y = 2;
  std::vector<int> in(width * height);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<int>(i * 7 % 31) - 10;
  xgpu::Buffer<int> din = context.alloc<int>(in.size()), dout = context.alloc<int>(in.size());
  queue.write(din, in);
  xgpu::Program program =
      context.build({"client_mix.cl", kMix}, "-DOFFSET=" + std::to_string(offset));
  queue.launch(program.kernel("client_mix"), xgpu::Range{width, height},
               xgpu::Range{local_x, local_y}, din, dout, width);
  std::vector<int> want(in.size());
  for (unsigned y = 0; y < height; ++y) {
    for (unsigned x = 0; x < width; ++x) {
      const std::size_t at = y * width + x;
      want[at] = 3 * in[at] + offset + static_cast<int>(x ^ y) + static_cast<int>(y % local_y);
    }
  }
  return compare("client_mix", queue.read(dout), want);
}

void print_stats(int rounds) {
  xgpu::cache::flush();
  const xgpu::CacheStats s = xgpu::cache_stats();
  std::cout << "stats rounds=" << rounds << " hits=" << s.hits << " misses=" << s.misses
            << " stores=" << s.stores << " store_failures=" << s.store_failures
            << " bad_entries=" << s.bad_entries << " healed=" << s.healed
            << " read_only_skips=" << s.read_only_skips << " evictions=" << s.evictions << '\n';
}

}  // namespace

int main(int argc, char** argv) {
  int offset = 1;
  double seconds = 0;
  bool stats = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--offset") == 0 && i + 1 < argc) {
      offset = std::atoi(argv[++i]);
    } else if (std::strcmp(argv[i], "--seconds") == 0 && i + 1 < argc) {
      seconds = std::atof(argv[++i]);
    } else if (std::strcmp(argv[i], "--stats") == 0) {
      stats = true;
    } else if (std::strcmp(argv[i], "--stall-write") == 0) {
      xgpu::detail::cache_test_hooks().before_entry_write = stall_mid_write;
    } else if (std::strcmp(argv[i], "--counters-delay-ms") == 0 && i + 1 < argc) {
      g_counters_delay_ms = std::atol(argv[++i]);
      xgpu::detail::cache_test_hooks().inside_counters_update = delay_counters_update;
    } else {
      std::cerr << "usage: " << argv[0]
                << " [--offset N] [--seconds S] [--stats] [--stall-write]"
                   " [--counters-delay-ms N]\n";
      return 2;
    }
  }
  try {
    xgpu::Device device = xgpu::select();
    const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    int rounds = 0;
    do {
      xgpu::Context context(device);
      xgpu::Queue queue = context.queue();
      std::size_t wrong = run_elementwise(context, queue) + run_mix(context, queue, offset);
      ++rounds;
      if (wrong != 0) {
        std::cout << "FAILED on " << device.describe() << " in round " << rounds << '\n';
        return 1;
      }
    } while (std::chrono::steady_clock::now() < end);
    if (stats) print_stats(rounds);
    std::cout << "ok\n";
    return 0;
  } catch (const xgpu::Error& error) {
    std::cout << "error: " << error.what() << '\n';
    return 2;
  }
}
