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
/// Weights from measured rates: a device never measured counts as the mean of those that
/// were (all equal when none was); normalised to sum 1.
std::vector<double> weights_from_rates(const std::vector<double>& rates);
/// A device's rate after one more measurement of `count` elements in `seconds`.
double updated_rate(double old_rate, std::size_t count, double seconds);
/// Contiguous slices of [0, n) in proportion to the weights, by largest remainder (ties go
/// to the lower device index), so the counts sum to n exactly.
std::vector<Slice> split_by_weights(std::size_t n, const std::vector<double>& weights);

}  // namespace xgpu::detail
