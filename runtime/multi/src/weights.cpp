// The split rule (see weights.hpp and docs/multi-device.md).
#include "weights.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <xgpu/error.hpp>

namespace xgpu::detail {

namespace {

[[noreturn]] void bad_weights(const std::string& why) {
  throw Error(Errc::invalid_argument, "DeviceGroup::set_weights: " + why,
              "DeviceGroup::set_weights");
}

}  // namespace

std::vector<double> normalised_weights(const std::vector<double>& weights, std::size_t devices) {
  if (weights.size() != devices) {
    bad_weights(std::to_string(weights.size()) + " weights for a group of " +
                std::to_string(devices) + " devices (one weight per device)");
  }
  double total = 0;
  for (std::size_t i = 0; i < weights.size(); ++i) {
    if (!std::isfinite(weights[i]) || weights[i] < 0) {
      bad_weights("weight " + std::to_string(i) + " is " + std::to_string(weights[i]) +
                  " (weights must be finite and >= 0)");
    }
    total += weights[i];
  }
  if (!(total > 0) || !std::isfinite(total)) {
    bad_weights("the weights sum to " + std::to_string(total) +
                " (at least one must be positive, and the sum finite)");
  }
  std::vector<double> result(weights.size());
  for (std::size_t i = 0; i < weights.size(); ++i) result[i] = weights[i] / total;
  return result;
}

std::vector<double> weights_from_rates(const std::vector<double>& rates,
                                       const std::vector<unsigned>& measurements) {
  double measured_sum = 0, fastest = 0;
  std::size_t measured = 0;
  for (double rate : rates) {
    if (rate > 0) {
      measured_sum += rate;
      fastest = std::max(fastest, rate);
      ++measured;
    }
  }
  const double stand_in = measured == 0 ? 1.0 : measured_sum / static_cast<double>(measured);
  std::vector<double> weights(rates.size());
  double total = 0;
  for (std::size_t i = 0; i < rates.size(); ++i) {
    weights[i] = rates[i] > 0 ? rates[i] : stand_in;
    // The fastest device itself is never left out, so the total stays positive.
    if (rates[i] > 0 && rates[i] < kLeastUsefulRate * fastest &&
        measurements[i] >= kMeasurementsBeforeLeavingOut) {
      weights[i] = 0;
    }
    total += weights[i];
  }
  for (double& weight : weights) weight /= total;
  return weights;
}

double updated_rate(double old_rate, std::size_t count, double seconds) {
  // A clock too coarse to see the work still says "very fast", never infinitely.
  const double measured = static_cast<double>(count) / std::max(seconds, 1e-9);
  if (!(old_rate > 0)) return measured;
  return kNewRateShare * measured + (1 - kNewRateShare) * old_rate;
}

std::vector<Slice> split_by_weights(std::size_t n, const std::vector<double>& weights) {
  const std::size_t devices = weights.size();
  std::vector<std::size_t> counts(devices);
  std::vector<double> remainders(devices);
  std::size_t given = 0;
  for (std::size_t i = 0; i < devices; ++i) {
    const double quota = static_cast<double>(n) * weights[i];
    // min(): a quota rounded up past n by floating point must not give more than n.
    counts[i] = std::min(static_cast<std::size_t>(std::floor(quota)), n - given);
    remainders[i] = quota - static_cast<double>(counts[i]);
    given += counts[i];
  }
  // The elements the floors left over go one each to the largest remainders.
  std::vector<std::size_t> order(devices);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return remainders[a] > remainders[b]; });
  for (std::size_t k = 0; given < n; k = (k + 1) % devices, ++given) ++counts[order[k]];
  std::vector<Slice> slices(devices);
  std::size_t offset = 0;
  for (std::size_t i = 0; i < devices; ++i) {
    slices[i] = Slice{offset, counts[i]};
    offset += counts[i];
  }
  return slices;
}

}  // namespace xgpu::detail
