// The library suite's reduction and scan checks, against host references at small sizes:
// sums exact where they must be (float ones, wrapping integers), extremes with ties and NaN,
// dot within its stated bound, and both scans (int32 exactly, float within the bound).
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>
#include <xgpu/algorithms.hpp>

#include "check.hpp"

namespace xgpu::conform {
namespace {

template <class T>
Buffer<T> upload(Env& env, const std::vector<T>& host) {
  Buffer<T> buffer = env.context().alloc<T>(host.size());
  env.queue().write(buffer, host);
  return buffer;
}

// Exact sums: float ones (no rounding below 2^24, whatever the order), and uint32 values
// whose sum wraps modulo 2^32.
Result sum_exact(Env& env) {
  const std::size_t n = env.size(70001, 3001);
  const float ones = xgpu::sum(env.queue(), upload(env, std::vector<float>(n, 1.0f)));
  if (ones != static_cast<float>(n)) return fail_expected("xgpu::sum of float ones", n, ones);
  const std::vector<std::uint32_t> big(n, 0x9E3779B9u);
  std::uint32_t expected = 0;
  for (std::uint32_t v : big) expected += v;
  const std::uint32_t got = xgpu::sum(env.queue(), upload(env, big));
  if (got != expected) return fail_expected("xgpu::sum of uint32 (wrapping)", expected, got);
  return pass();
}

// min, max, argmin, argmax: repeated extremes (the first index wins), then a NaN, which
// min/max propagate and argmin/argmax point at.
Result extremes(Env& env) {
  const std::size_t n = env.size(20011, 2003);
  std::vector<float> x(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = static_cast<float>((i * 37) % 101) - 50.0f;
  std::size_t first_max = 0, first_min = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (x[i] > x[first_max]) first_max = i;
    if (x[i] < x[first_min]) first_min = i;
  }
  Buffer<float> dx = upload(env, x);
  Queue& queue = env.queue();
  if (xgpu::min(queue, dx) != x[first_min])
    return fail_expected("xgpu::min", x[first_min], xgpu::min(queue, dx));
  if (xgpu::max(queue, dx) != x[first_max])
    return fail_expected("xgpu::max", x[first_max], xgpu::max(queue, dx));
  if (xgpu::argmin(queue, dx) != first_min)
    return fail_expected("xgpu::argmin (first of equal)", first_min, xgpu::argmin(queue, dx));
  if (xgpu::argmax(queue, dx) != first_max)
    return fail_expected("xgpu::argmax (first of equal)", first_max, xgpu::argmax(queue, dx));
  x[n / 2] = NAN;
  dx = upload(env, x);
  if (!std::isnan(xgpu::max(queue, dx)))
    return fail_expected("xgpu::max with a NaN", "nan", xgpu::max(queue, dx));
  if (xgpu::argmin(queue, dx) != n / 2)
    return fail_expected("xgpu::argmin with a NaN (its index)", n / 2, xgpu::argmin(queue, dx));
  return pass();
}

// dot of random floats within the bound xgpu/algorithms/reduce.hpp states:
// 41 u sum(|x y|), u = 2^-24.
Result dot(Env& env) {
  const std::size_t n = env.size(50021, 4001);
  std::mt19937 random(5);
  std::uniform_real_distribution<float> uniform(-2.0f, 2.0f);
  std::vector<float> x(n), y(n);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = uniform(random);
    y[i] = uniform(random);
  }
  long double exact = 0, magnitude = 0;
  for (std::size_t i = 0; i < n; ++i) {
    exact += static_cast<long double>(x[i]) * y[i];
    magnitude += std::fabs(static_cast<long double>(x[i]) * y[i]);
  }
  const float got = xgpu::dot(env.queue(), upload(env, x), upload(env, y));
  const double bound = 41 * std::ldexp(1.0, -24) * double(magnitude);
  if (!(std::fabs(got - double(exact)) <= bound))
    return fail_expected(
        "xgpu::dot<float> of " + std::to_string(n) + " (bound " + std::to_string(bound) + ")",
        double(exact), got);
  return pass();
}

// Inclusive scan of int32 exactly (in place), exclusive scan of floats with an init value
// within scan.hpp's bound: (i + 64) u sum(|in[0..i]|) (init counted as an element).
Result scans(Env& env) {
  const std::size_t n = env.size(30011, 2011);
  Queue& queue = env.queue();
  std::vector<std::int32_t> ints(n);
  for (std::size_t i = 0; i < n; ++i) ints[i] = static_cast<std::int32_t>(i % 17) - 8;
  Buffer<std::int32_t> dints = upload(env, ints);
  xgpu::inclusive_scan(queue, dints, dints);
  const std::vector<std::int32_t> got_ints = queue.read(dints);
  std::int32_t running = 0;
  for (std::size_t i = 0; i < n; ++i) {
    running += ints[i];
    if (got_ints[i] != running)
      return fail_expected("xgpu::inclusive_scan<int32> in place [" + std::to_string(i) + "]",
                           running, got_ints[i]);
  }

  std::mt19937 random(9);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  std::vector<float> floats(n);
  for (float& v : floats) v = uniform(random);
  const float init = 0.5f;
  Buffer<float> out = env.context().alloc<float>(n);
  xgpu::exclusive_scan(queue, upload(env, floats), out, init);
  const std::vector<float> got = queue.read(out);
  long double exact = init, magnitude = init;
  for (std::size_t i = 0; i < n; ++i) {
    const double bound = (double(i) + 65) * std::ldexp(1.0, -24) * double(magnitude);
    if (!(std::fabs(got[i] - double(exact)) <= bound))
      return fail_expected("xgpu::exclusive_scan<float> [" + std::to_string(i) + "] (bound " +
                               std::to_string(bound) + ")",
                           double(exact), got[i]);
    exact += floats[i];
    magnitude += std::fabs(floats[i]);
  }
  return pass();
}

}  // namespace

void register_library_reduce(Registry& registry) {
  registry.add("library", "reduce_sum_exact", "", sum_exact);
  registry.add("library", "reduce_extremes", "", extremes);
  registry.add("library", "reduce_dot", "", dot);
  registry.add("library", "scans", "", scans);
}

}  // namespace xgpu::conform
