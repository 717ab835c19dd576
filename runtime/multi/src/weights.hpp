// The split rule: weights from measured rates, and slices in proportion to weights.
// docs/multi-device.md states the rule; these functions are all of it.
#pragma once

#include <cstddef>
#include <vector>
#include <xgpu/device_group.hpp>

namespace xgpu::detail {

/// How much of a new measurement enters a device's rate (the rest is the old rate): the
/// first calls of a kernel often pay one-time costs (PoCL compiles a work-group function on
/// the first launch), which must not pin the split for long.
inline constexpr double kNewRateShare = 0.75;

/// Checks and normalises weights for set_weights(); invalid_argument naming the mistake.
std::vector<double> normalised_weights(const std::vector<double>& weights, std::size_t devices);
/// A device measured less than this fraction as fast as the fastest member gets no work:
/// it could add at most that fraction to the group's speed, while its fixed cost per call
/// (a launch, a thread, on a simulator milliseconds) and, when it runs on the host's cores,
/// the CPU time it takes from the others, are not in the rate and cost more.
inline constexpr double kLeastUsefulRate = 1.0 / 100;
/// ... but only once its rate comes from this many calls, so that one call slowed by one-time
/// costs (a first launch's compile) cannot shut a device out.
inline constexpr unsigned kMeasurementsBeforeLeavingOut = 2;

/// Weights from measured rates: a device never measured counts as the mean of those that
/// were (all equal when none was); a device slower than kLeastUsefulRate of the fastest,
/// measured often enough, gets 0; normalised to sum 1.
std::vector<double> weights_from_rates(const std::vector<double>& rates,
                                       const std::vector<unsigned>& measurements);
/// A device's rate after one more measurement of `count` elements in `seconds`.
double updated_rate(double old_rate, std::size_t count, double seconds);
/// Contiguous slices of [0, n) in proportion to the weights, by largest remainder (ties go
/// to the lower device index), so the counts sum to n exactly.
std::vector<Slice> split_by_weights(std::size_t n, const std::vector<double>& weights);

}  // namespace xgpu::detail
