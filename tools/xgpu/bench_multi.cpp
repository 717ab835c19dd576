// The `multi` suite of `xgpu bench`: a saxpy and a sum split over a DeviceGroup, against the
// best device of the group alone, in the same run and interleaved. The split is the group's
// own: its weights adapt to each device's measured rate over a few rounds (growing sizes, so
// a slow device's even share of a first round stays small), then stay fixed for the timed
// rounds and are reported. Every result is checked. Then a device-to-device copy
// (bench_device_copy.cpp).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <numeric>
#include <random>
#include <xgpu/algorithms.hpp>
#include <xgpu/device_group.hpp>
#include <xgpu/xgpu.hpp>

#include "bench.hpp"
#include "bench_util.hpp"

namespace xgpu::cli {
namespace {

using bench::Clock;
using bench::count_text;
using bench::random_floats;
using bench::seconds_since;

constexpr const char* kSuite = "multi";
constexpr float kA = 1.5f;

// The operands of one operation, spread over the group by the weights it had when made.
struct Spread {
  Distributed<float> x, y;
};

// One operation, run over the group or on one queue; each waits for its result.
struct Operation {
  const char* name;
  std::function<void(DeviceGroup&, Spread&)> on_group;
  std::function<void(Queue&, const Buffer<float>&, const Buffer<float>&)> alone;
};

// |sum - exact| allowed for xgpu::sum of non-negative values (docs/algorithms.md: 40 u sum|x|
// per device's part), plus the host's adding of the parts in double.
bool sum_is_right(double got, double exact) {
  return std::fabs(got - exact) <= 41 * std::ldexp(1.0, -24) * exact;
}

// Runs `op` over the group until its weights settle: a round at n / 256, one at n / 16, then
// rounds at n until no weight moves by more than 5% (or kMaxRounds). Returns the rounds run.
int adapt(DeviceGroup& group, const Operation& op, const std::vector<float>& x,
          const std::vector<float>& y, std::size_t n) {
  constexpr int kMaxRounds = 10;
  group.adapt_weights();
  std::vector<double> before = group.weights();
  for (int round = 0; round < kMaxRounds; ++round) {
    const std::size_t size = round == 0 ? n / 256 : round == 1 ? n / 16 : n;
    Spread spread{group.scatter(x.data(), size), group.scatter(y.data(), size)};
    op.on_group(group, spread);
    const std::vector<double> after = group.weights();
    bool settled = round >= 2;
    for (std::size_t d = 0; d < after.size(); ++d)
      settled &= std::fabs(after[d] - before[d]) <= 0.05 * before[d] + 1e-6;
    before = after;
    if (settled) return round + 1;
  }
  return kMaxRounds;
}

// A share under this fraction of the largest is worth less than what running its device
// costs: the launch, and on a host that also runs the device (a simulator, a CPU device) the
// cores it takes from the others.
constexpr double kNegligible = 0.01;

// The weights with every one under kNegligible of the largest set to 0 (the largest stays;
// set_weights normalises them).
std::vector<double> without_negligible(std::vector<double> weights) {
  const double largest = *std::max_element(weights.begin(), weights.end());
  for (double& w : weights) {
    if (w < kNegligible * largest) w = 0;
  }
  return weights;
}

std::string weights_text(const std::vector<double>& weights) {
  std::string text;
  for (std::size_t d = 0; d < weights.size(); ++d) {
    char part[48];
    std::snprintf(part, sizeof part, "%sdevice %zu %.4g", d ? ", " : "", d, weights[d]);
    text += part;
  }
  return text;
}

}  // namespace

void bench_multi(DeviceGroup& group, const BenchOptions& options, std::vector<Figure>& figures) {
  const std::size_t n = options.quick ? std::size_t{1} << 20 : std::size_t{16} << 20;
  const int reps = bench::repetitions(options, 3, 10);
  const std::vector<float> x = random_floats(n, 0.0f, 1.0f, 1), y = random_floats(n, 0.0f, 1.0f, 2);
  const double exact_sum = std::accumulate(x.begin(), x.end(), 0.0);

  std::vector<double> partial(group.size());
  double group_total = 0, alone_total = 0;
  const Operation saxpy{"saxpy",
                        [](DeviceGroup& g, Spread& s) {
                          g.for_each(s.x, [&](Queue& q, std::size_t d, Slice) {
                            xgpu::axpy(q, kA, s.x.buffer(d), s.y.buffer(d));
                          });
                        },
                        [](Queue& q, const Buffer<float>& bx, const Buffer<float>& by) {
                          xgpu::axpy(q, kA, bx, by);
                          q.finish();
                        }};
  const Operation sum{"sum",
                      [&](DeviceGroup& g, Spread& s) {
                        std::fill(partial.begin(), partial.end(), 0.0);
                        g.for_each(s.x, [&](Queue& q, std::size_t d, Slice) {
                          partial[d] = xgpu::sum(q, s.x.buffer(d));
                        });
                        group_total = std::accumulate(partial.begin(), partial.end(), 0.0);
                      },
                      [&](Queue& q, const Buffer<float>& bx, const Buffer<float>&) {
                        alone_total = xgpu::sum(q, bx);
                      }};

  // Each device builds the kernels first, so that no round's time holds a build.
  for (std::size_t d = 0; d < group.size(); ++d) {
    Queue q = group[d].queue;
    auto bx = q.context().alloc<float>(64), by = q.context().alloc<float>(64);
    q.fill(bx, 1.0f);
    q.fill(by, 1.0f);
    saxpy.alone(q, bx, by);
    sum.alone(q, bx, by);
    bench::settle(q);
  }

  for (const Operation* op : {&saxpy, &sum}) {
    const int rounds = adapt(group, *op, x, y, n);
    const std::vector<double> weights = group.weights();
    std::vector<double> pruned = without_negligible(weights);
    // Each spread keeps the split it is made with; fixed weights keep the timed rounds from
    // moving the group's weights meanwhile.
    std::vector<Spread> spreads;
    group.set_weights(weights);
    spreads.push_back({group.scatter(x.data(), n), group.scatter(y.data(), n)});
    if (pruned != weights) {
      group.set_weights(pruned);
      pruned = group.weights();  // normalised, as reported
      spreads.push_back({group.scatter(x.data(), n), group.scatter(y.data(), n)});
    }
    // The best device alone is the one the group measured fastest: the largest weight.
    const std::size_t best = std::max_element(weights.begin(), weights.end()) - weights.begin();
    Queue alone = group[best].queue;
    auto ax = alone.context().alloc<float>(n), ay = alone.context().alloc<float>(n);
    alone.write(ax, x);
    alone.write(ay, y);
    auto check_sums = [&] {
      if (op == &sum &&
          !(sum_is_right(group_total, exact_sum) && sum_is_right(alone_total, exact_sum))) {
        bench::wrong(kSuite, "sum is off: group " + std::to_string(group_total) + ", device " +
                                 std::to_string(best) + " alone " + std::to_string(alone_total) +
                                 ", exact " + std::to_string(exact_sum));
      }
    };

    // One round of each from the same y: every element of saxpy exact (it is fused).
    op->alone(alone, ax, ay);
    for (Spread& spread : spreads) {
      op->on_group(group, spread);
      check_sums();
      if (op != &saxpy) continue;
      const std::vector<float> from_group = group.gather(spread.y), from_alone = alone.read(ay);
      for (std::size_t i = 0; i < n; ++i) {
        const float expected = std::fma(kA, x[i], y[i]);
        if (from_group[i] != expected || from_alone[i] != expected)
          bench::wrong(kSuite, "saxpy element " + std::to_string(i) + " is wrong");
      }
    }
    bench::settle(alone);

    Samples on_one;
    std::vector<Samples> on_group(spreads.size());
    for (int r = 0; r < reps; ++r) {
      for (std::size_t k = 0; k < spreads.size(); ++k) {
        auto started = Clock::now();
        op->on_group(group, spreads[k]);
        on_group[k].values.push_back(seconds_since(started) * 1e3);
        check_sums();
      }
      auto started = Clock::now();
      op->alone(alone, ax, ay);
      on_one.values.push_back(seconds_since(started) * 1e3);
      check_sums();
    }
    const std::string what = std::string(op->name) + " " + count_text(n);
    const std::string split = what + ", split over " + std::to_string(group.size());
    Figure baseline = bench::make_figure(
        kSuite, what + ", device " + std::to_string(best) + " alone", "ms", on_one);
    figures.push_back(baseline);
    Figure adapted = bench::make_figure(kSuite, split, "ms", on_group[0]);
    bench::compare_with(adapted, baseline, 1.3, true);
    adapted.note = "weights " + weights_text(weights) + " (after " + std::to_string(rounds) +
                   " rounds of adapting)";
    figures.push_back(std::move(adapted));
    if (spreads.size() > 1) {
      Figure trimmed = bench::make_figure(
          kSuite, split + ", weights under 1% of the largest set to 0", "ms", on_group[1]);
      bench::compare_with(trimmed, baseline, 0, true);
      trimmed.note = "weights " + weights_text(pruned) +
                     ": what the devices with a negligible share cost the split above";
      figures.push_back(std::move(trimmed));
    }
  }
  group.adapt_weights();
  bench_device_copy(group, options, figures);
}

}  // namespace xgpu::cli
