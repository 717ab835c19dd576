// The split rule on its own, without devices (runtime/multi/src/weights.cpp compiled into
// the test program): weights from rates, the smoothing, leaving out a far slower device,
// and largest-remainder slices.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <vector>

#include "weights.hpp"

using xgpu::detail::normalised_weights;
using xgpu::detail::split_by_weights;
using xgpu::detail::updated_rate;
using xgpu::detail::weights_from_rates;

namespace {

std::vector<std::size_t> counts(const std::vector<xgpu::Slice>& slices) {
  std::vector<std::size_t> result;
  std::size_t next = 0;
  for (const xgpu::Slice& s : slices) {
    CHECK(s.offset == next);  // contiguous, in device order
    next += s.count;
    result.push_back(s.count);
  }
  return result;
}

}  // namespace

TEST_CASE("weights come from rates; an unmeasured device counts as the mean", "[multi_rule]") {
  CHECK(weights_from_rates({0, 0}, {0, 0}) == std::vector<double>{0.5, 0.5});
  const auto w = weights_from_rates({100, 0, 300}, {1, 0, 1});  // the middle one: 200
  CHECK(w[0] == Approx(100.0 / 600));
  CHECK(w[1] == Approx(200.0 / 600));
  CHECK(w[2] == Approx(300.0 / 600));
}

TEST_CASE("a device under 1/100 of the fastest is left out after two measurements",
          "[multi_rule]") {
  CHECK(weights_from_rates({1000, 5}, {2, 2}) == std::vector<double>{1, 0});
  CHECK(weights_from_rates({1000, 5}, {2, 1})[1] == Approx(5.0 / 1005));    // one call: kept
  CHECK(weights_from_rates({1000, 10}, {5, 5})[1] == Approx(10.0 / 1010));  // exactly 1/100
  // Equal devices are never left out, however many.
  const auto many =
      weights_from_rates(std::vector<double>(300, 7.0), std::vector<unsigned>(300, 9));
  for (double w : many) CHECK(w == Approx(1.0 / 300));
}

TEST_CASE("a rate is the first measurement, then 3/4 new and 1/4 old", "[multi_rule]") {
  CHECK(updated_rate(0, 100, 1.0) == Approx(100));
  CHECK(updated_rate(100, 300, 1.0) == Approx(0.75 * 300 + 0.25 * 100));
  // A clock that saw no time still gives a finite rate.
  CHECK(std::isfinite(updated_rate(0, 10, 0.0)));
  CHECK(updated_rate(0, 10, 0.0) > 0);
}

TEST_CASE("slices: largest remainder, ties to the lower device, summing to n", "[multi_rule]") {
  CHECK(counts(split_by_weights(3, {0.5, 0.5})) == std::vector<std::size_t>{2, 1});
  CHECK(counts(split_by_weights(10, {1.0 / 3, 1.0 / 3, 1.0 / 3})) ==
        std::vector<std::size_t>{4, 3, 3});
  CHECK(counts(split_by_weights(10, {0.1, 0.25, 0.65})) == std::vector<std::size_t>{1, 3, 6});
  CHECK(counts(split_by_weights(5, {0, 1})) == std::vector<std::size_t>{0, 5});
  CHECK(counts(split_by_weights(0, {0.3, 0.7})) == std::vector<std::size_t>{0, 0});
  CHECK(counts(split_by_weights(1, {0.3, 0.7})) == std::vector<std::size_t>{0, 1});
  // Large n: still exact.
  const std::size_t big = (std::size_t{1} << 40) + 3;
  const auto c = counts(split_by_weights(big, {0.2, 0.3, 0.5}));
  CHECK(c[0] + c[1] + c[2] == big);
}

TEST_CASE("set_weights' checks", "[multi_rule]") {
  CHECK(normalised_weights({1, 3}, 2) == std::vector<double>{0.25, 0.75});
  CHECK_THROWS_WITH(normalised_weights({1}, 2), Catch::Contains("1 weights for a group of 2"));
  CHECK_THROWS_WITH(normalised_weights({0, 0}, 2), Catch::Contains("sum to 0"));
  CHECK_THROWS_WITH(normalised_weights({1, std::numeric_limits<double>::quiet_NaN()}, 2),
                    Catch::Contains("weight 1 is nan"));
  // Each finite, the sum not: refused rather than normalised to NaN.
  const double huge = std::numeric_limits<double>::max();
  CHECK_THROWS_WITH(normalised_weights({huge, huge}, 2), Catch::Contains("sum finite"));
}
