// Threads: discovery, selection, contexts and builds from 8 threads at once, and one Kernel
// launched from 8 threads on one queue. Catch's assertions are not thread-safe, so workers
// record what went wrong and the main thread checks it.
#include <atomic>
#include <thread>

#include "test_support.hpp"

namespace {

constexpr int kThreads = 8;

// Runs body(t) on kThreads threads started together; returns each thread's failure text.
template <class Body>
std::vector<std::string> run_threads(Body body) {
  std::vector<std::string> failures(kThreads);
  std::atomic<int> ready{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      ready.fetch_add(1);
      while (ready.load() < kThreads) std::this_thread::yield();
      try {
        failures[t] = body(t);
      } catch (const std::exception& e) {
        failures[t] = std::string("exception: ") + e.what();
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  return failures;
}

void check_no_failures(const std::vector<std::string>& failures) {
  for (std::size_t t = 0; t < failures.size(); ++t) {
    INFO("thread " << t << ": " << failures[t]);
    CHECK(failures[t].empty());
  }
}

}  // namespace

// Declared first so that, run alone, it is the process's first use of xgpu.
TEST_CASE("discovery from 8 threads at once", "[threads]") {
  std::vector<std::vector<xgpu::Device>> seen(kThreads);
  check_no_failures(run_threads([&](int t) {
    seen[t] = xgpu::devices();
    return seen[t].empty() ? std::string("no device") : std::string();
  }));
  for (int t = 1; t < kThreads; ++t) CHECK(seen[t] == seen[0]);
}

TEST_CASE("select and build and launch from 8 threads", "[threads]") {
  const std::size_t device_count = xgpu::devices().size();
  REQUIRE(device_count > 0);
  check_no_failures(run_threads([&](int t) -> std::string {
    const xgpu::Device device = xgpu::select(std::to_string(t % device_count));
    xgpu::Context context(device);
    xgpu::Queue queue = context.queue();
    // A different option per thread: each build is its own program.
    xgpu::Program program = context.build(
        {"per_thread.cl",
         "kernel void stamp(global int* out) { out[get_global_id(0)] = BASE + get_global_id(0); }"},
        "-DBASE=" + std::to_string(1000 * t));
    const std::size_t n = 256;
    xgpu::Buffer<int> out = context.alloc<int>(n);
    queue.launch(program.kernel("stamp"), xgpu::Range{n}, out);
    const std::vector<int> result = queue.read(out);
    for (std::size_t i = 0; i < n; ++i) {
      if (result[i] != 1000 * t + static_cast<int>(i)) {
        return device.describe() + ": out[" + std::to_string(i) +
               "] = " + std::to_string(result[i]);
      }
    }
    return {};
  }));
}

TEST_CASE("one Kernel launched from 8 threads on one queue", "[threads]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context context(device);
      xgpu::Queue queue = context.queue();
      xgpu::Kernel line = context
                              .build({"line.cl",
                                      "kernel void line(int a, int b, global int* out) {\n"
                                      "  int i = get_global_id(0);\n"
                                      "  out[i] = a * i + b;\n"
                                      "}\n"})
                              .kernel("line");
      const std::size_t n = 64;
      const int rounds = xgpu_test::is_oclgrind(device) ? 4 : 20;
      std::vector<xgpu::Buffer<int>> outs;
      for (int t = 0; t < kThreads; ++t) outs.push_back(context.alloc<int>(n));
      check_no_failures(run_threads([&](int t) -> std::string {
        for (int round = 0; round < rounds; ++round) {
          const int a = t + 1, b = 100 * t + round;
          queue.launch(line, xgpu::Range{n}, a, b, outs[t]);
          const std::vector<int> result = queue.read(outs[t]);  // in order: after our launch
          for (std::size_t i = 0; i < n; ++i) {
            if (result[i] != a * static_cast<int>(i) + b) {
              return "round " + std::to_string(round) + ": out[" + std::to_string(i) +
                     "] = " + std::to_string(result[i]) + ", expected " +
                     std::to_string(a * static_cast<int>(i) + b);
            }
          }
        }
        return {};
      }));
    }
  }
}
