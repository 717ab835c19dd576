// Small helpers the suites of `xgpu bench` share: a clock, the error of a wrong result, STREAM's
// triad kernel, building a Figure, comparing two figures, and running a function on every host
// core.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <random>
#include <string>
#include <thread>
#include <vector>
#include <xgpu/cache.hpp>
#include <xgpu/context.hpp>
#include <xgpu/error.hpp>
#include <xgpu/program.hpp>
#include <xgpu/queue.hpp>

#include "bench.hpp"

namespace xgpu::cli::bench {

using Clock = std::chrono::steady_clock;

inline double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// Times `action` (which must finish its work before returning) in milliseconds.
template <class Action>
double milliseconds(Action&& action) {
  const auto started = Clock::now();
  action();
  return seconds_since(started) * 1e3;
}

/// A result of `suite` (ours or a peer's) that is wrong: every result is checked, so a fast
/// wrong answer cannot pass as a figure.
[[noreturn]] inline void wrong(const std::string& suite, const std::string& what) {
  throw Error(Errc::backend, "bench " + suite + ": " + what, "bench");
}

/// STREAM's triad over floats, a = b + s c: the baseline of the bandwidth-bound figures (three
/// arrays of n floats, two read and one written, 12 n bytes per call).
constexpr const char* kTriadSource = R"(
__kernel void triad(__global float* a, __global const float* b, __global const float* c,
                    const float s) {
  const size_t i = get_global_id(0);
  a[i] = b[i] + s * c[i];
}
)";

/// The triad kernel built for `context` with build `options`.
inline Kernel triad_kernel(Context& context, const std::string& options = {}) {
  return context.build(Source{"bench_triad.cl", kTriadSource}, options).kernel("triad");
}

inline Figure make_figure(const std::string& suite, const std::string& name,
                          const std::string& unit, Samples samples = {}) {
  Figure f;
  f.suite = suite;
  f.name = name;
  f.unit = unit;
  f.samples = std::move(samples);
  return f;
}

/// Sets f's ratio to its baseline's median; `at_most` says which side the target bounds.
inline void compare_with(Figure& f, const Figure& baseline, double target, bool at_most) {
  f.baseline = baseline.name;
  f.ratio = baseline.samples.median() > 0 ? f.samples.median() / baseline.samples.median() : 0;
  if (target <= 0) return;
  char text[32];
  std::snprintf(text, sizeof text, "%s %.2f", at_most ? "<=" : ">=", target);
  f.target = text;
  f.met = at_most ? f.ratio <= target : f.ratio >= target;
}

/// compare_with(), for figures measured in pairs of rounds (round i of each side back to back):
/// the ratio is the median of the rounds' own ratios, so that what the machine did in one
/// stretch of time (another process, the clock) weighs on both sides of the pair alike.
inline void compare_paired(Figure& f, const Figure& baseline, double target, bool at_most) {
  compare_with(f, baseline, target, at_most);
  const auto& ours = f.samples.values;
  const auto& theirs = baseline.samples.values;
  if (ours.size() != theirs.size() || ours.empty()) return;
  Samples ratios;
  for (std::size_t i = 0; i < ours.size(); ++i) {
    if (theirs[i] <= 0) return;
    ratios.values.push_back(ours[i] / theirs[i]);
  }
  f.ratio = ratios.median();
  if (!f.target.empty()) f.met = at_most ? f.ratio <= target : f.ratio >= target;
}

inline unsigned host_threads() { return std::max(1u, std::thread::hardware_concurrency()); }

/// Runs work(thread, threads) on every host core at once; returns the wall time in seconds,
/// thread start and join included (small next to the work the suites give it).
inline double on_all_cores(const std::function<void(unsigned, unsigned)>& work) {
  const unsigned threads = host_threads();
  std::vector<std::thread> pool;
  auto started = Clock::now();
  for (unsigned t = 0; t < threads; ++t) pool.emplace_back(work, t, threads);
  for (auto& thread : pool) thread.join();
  return seconds_since(started);
}

/// Between a warm-up and the timed rounds: the queue drained, and the kernel cache's pending
/// saves written now. A kernel's first launch of a work-group shape schedules a save of its
/// program 300 ms later; fetching the binary makes PoCL compile the whole program, which
/// stalled timed launches for seconds when it fell inside a round.
inline void settle(Queue& queue) {
  queue.finish();
  xgpu::cache::flush();
}

/// A fresh number for a build option, so that no kernel cache answers a first-call build.
inline std::string nonce() {
  static std::mt19937_64 random(std::random_device{}());
  return std::to_string(random());
}

/// Repetitions for a suite: --repetitions if given, else its quick or full default.
inline int repetitions(const BenchOptions& options, int quick, int full) {
  return options.repetitions > 0 ? options.repetitions : options.quick ? quick : full;
}

// n uniform floats in [low, high) from a fixed seed: the same inputs on every run.
inline std::vector<float> random_floats(std::size_t n, float low, float high, unsigned seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<float> uniform(low, high);
  std::vector<float> values(n);
  for (float& v : values) v = uniform(random);
  return values;
}

// "16M", or "256K" for the quick sizes.
inline std::string count_text(std::size_t n) {
  return n >= (std::size_t{1} << 20) ? std::to_string(n >> 20) + "M"
                                     : std::to_string(n >> 10) + "K";
}

}  // namespace xgpu::cli::bench
