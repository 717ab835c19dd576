// xgpu::softmax_rows on every device, against a long double host reference: float, double
// and half, empty, narrow and wide rows (one item per row, one group per row), in place,
// large magnitudes, infinities and NaN in a row, and the errors. Everything runs in both
// layouts (XGPU_SOFTMAX_SHAPE=cpu: an item per row, read in vectors of 16; gpu: an item per
// row, in vectors of 4, up to 32 columns, a work-group per row above), with row lengths
// around the vector widths and the switch, and row counts that leave partial work-groups.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>
#include <xgpu/algorithms.hpp>

#include "test_support.hpp"

using xgpu::half;
using xgpu_test::capture_error;
using xgpu_test::check_error;
using xgpu_test::element_of;
using xgpu_test::is_floating;
using xgpu_test::is_oclgrind;
using xgpu_test::random_values;
using xgpu_test::ScopedEnv;
using xgpu_test::supported;
using xgpu_test::type_name;
using xgpu_test::upload;
using xgpu_test::value_of;

namespace {

/// Checks softmax of `values` (rows x cols) against a long double reference computed the
/// way the kernels define it (an entry equal to the row maximum weighs exactly 1).
///
/// Bound, relative to each result, in epsilons of the type computed in:
///  - its weight exp(x - m): exp's 3 ulp, and the rounding of x - m, which moves the
///    result by |x - m| eps / 2 relative (0 for x == m, whose weight is exactly 1);
///  - the sum: the weights' own errors (their weighted mean), and the reduction's: each
///    work-item's share is a compensated (Kahan) sum, within 2 eps whatever its length,
///    and a work-group combines the shares in a tree of at most log2(cols) levels, one
///    rounding each (the usual log2(n) eps of a pairwise sum);
///  - the division: 2.5 ulp for float, exact rounding for double: 3.
/// Twice that, for slack. So the bound grows with log2(cols), not cols. Measured (float,
/// inputs in [-10, 10], [-1, 1], [-0.01, 0.01]; 2^8 to 2^22 columns, PoCL one item per
/// row and Oclgrind one group per row): at most 9.1 eps, from the argument's rounding, and
/// flat in cols. The plain sequential sum the kernel had before reached 6,600 eps at 2^20
/// columns ([-10, 10]) and 49,000 eps for weights near 1: no log2(cols) constant bounds that.
/// Half adds its own rounding (2^-11 relative) and, for results below its normal range,
/// 2^-25 absolute; results below the compute type's normal range may be flushed to 0
/// (FLT_MIN, DBL_MIN absolute).
template <class T>
void check_softmax(xgpu::Context& context, xgpu::Queue& queue, std::size_t rows, std::size_t cols,
                   const std::vector<T>& values, bool in_place = false) {
  INFO(type_name<T>() << " softmax of " << rows << " x " << cols << (in_place ? " in place" : ""));
  xgpu::Buffer<T> in = upload(context, queue, values);
  xgpu::Buffer<T> out = in_place ? in : context.alloc<T>(values.size());
  xgpu::Event event = xgpu::softmax_rows(queue, in, out, rows, cols);
  CHECK(static_cast<bool>(event) == (rows * cols != 0));
  const std::vector<T> got = queue.read(out);
  using Compute = xgpu::scalar_t<T>;
  const long double epsilon = std::numeric_limits<Compute>::epsilon();
  const long double tree_levels =
      cols > 1 ? std::ceil(std::log2(static_cast<long double>(cols))) : 0;
  long double absolute = std::numeric_limits<Compute>::min(), half_rounding = 0;
  if constexpr (std::is_same_v<T, half>) {
    half_rounding = 1.0L / 2048;
    absolute = 1.0L / (1 << 25);
  }
  std::size_t wrong = 0;
  for (std::size_t r = 0; r < rows; ++r) {
    const std::size_t first = r * cols;
    long double maximum = -INFINITY;
    bool nan = false;
    for (std::size_t c = 0; c < cols; ++c) {
      const long double x = value_of(values[first + c]);
      nan = nan || std::isnan(x);
      if (x > maximum) maximum = x;
    }
    // Each weight and its error bound in eps (see above); the sum's error bound.
    long double sum = 0, got_sum = 0, weighted_error = 0, worst_relative = 0;
    std::vector<long double> weight(cols), weight_error(cols, 0);
    for (std::size_t c = 0; c < cols; ++c) {
      const long double x = value_of(values[first + c]);
      weight[c] = x == maximum ? 1.0L : std::exp(x - maximum);
      if (x != maximum && weight[c] != 0) weight_error[c] = 3 + std::fabs(x - maximum) / 2;
      sum += weight[c];
      weighted_error += weight[c] * weight_error[c];
    }
    const long double sum_error = (sum > 0 ? weighted_error / sum : 0) + 2 + tree_levels;
    for (std::size_t c = 0; c < cols; ++c) {
      const long double result = value_of(got[first + c]);
      got_sum += result;
      const long double expected = weight[c] / sum;
      const long double relative = 2 * (weight_error[c] + sum_error + 3) * epsilon + half_rounding;
      worst_relative = std::max(worst_relative, relative);
      const bool good =
          nan ? std::isnan(result) : std::fabs(result - expected) <= relative * expected + absolute;
      if (!good && wrong++ < 5)
        FAIL_CHECK("[" << r << "][" << c << "] of " << +value_of(values[first + c]) << ": expected "
                       << double(expected) << ", got " << double(result) << " (bound "
                       << double(relative / epsilon) << " eps relative)");
    }
    if (cols > 0 && !nan && !(std::fabs(got_sum - 1) <= worst_relative + cols * absolute) &&
        wrong++ < 5)
      FAIL_CHECK("row " << r << " sums to " << double(got_sum));
  }
  CHECK(wrong == 0);
}

template <class T>
void softmax_shapes(const xgpu::Device& device, const char* shape) {
  if constexpr (!is_floating<T>) {
    return;
  } else {
    if (!supported<T>(device)) return;
    INFO("XGPU_SOFTMAX_SHAPE=" << shape);
    ScopedEnv forced("XGPU_SOFTMAX_SHAPE", std::string(shape));
    xgpu::Context context(device);
    xgpu::Queue queue = context.queue();
    std::vector<std::pair<std::size_t, std::size_t>> shapes{
        {0, 0},   {0, 7},   {7, 0},    {1, 1},    {3, 2},   {3, 3},  {3, 4},
        {3, 5},   {5, 15},  {5, 16},   {5, 17},   {5, 31},  {5, 32}, {5, 33},
        {3, 255}, {3, 257}, {4, 1031}, {1, 4099}, {300, 33}};
    if (!is_oclgrind(device)) {
      shapes.insert(shapes.end(),
                    {{1000, 257}, {20000, 10}, {20001, 16}, {2, (std::size_t{1} << 20) + 3}});
    }
    for (const auto& [rows, cols] : shapes) {
      check_softmax<T>(
          context, queue, rows, cols,
          random_values<T>(rows * cols, static_cast<std::uint32_t>(rows + cols), -10, 10));
    }
    check_softmax<T>(context, queue, 3, 257, random_values<T>(3 * 257, 9, -10, 10), true);

    // Large magnitudes and infinities, in narrow (one item per row) and wide rows.
    using S = xgpu::scalar_t<T>;
    const S inf = std::numeric_limits<S>::infinity(), nan = std::numeric_limits<S>::quiet_NaN();
    for (std::size_t cols : {std::size_t{6}, std::size_t{300}}) {
      const std::size_t rows = 6;
      std::vector<T> values(rows * cols);
      for (std::size_t c = 0; c < cols; ++c) {
        const S big = std::is_same_v<T, half> ? S(60000) : S(1000);
        values[0 * cols + c] = element_of<T>(c % 2 ? big : -big);             // 1000, -1000
        values[1 * cols + c] = element_of<T>(-inf);                           // all -inf: uniform
        values[2 * cols + c] = element_of<T>(c % 3 ? -inf : S(c % 5));        // some -inf: weight 0
        values[3 * cols + c] = element_of<T>(c == 1 || c == 4 ? inf : S(c));  // two +inf share
        values[4 * cols + c] = element_of<T>(c == 2 ? nan : S(c));            // NaN: the row is NaN
        values[5 * cols + c] = element_of<T>(-big - S(c % 7));                // all very negative
      }
      check_softmax<T>(context, queue, rows, cols, values);
    }
  }
}

}  // namespace

TEST_CASE("softmax_rows of every floating type and shape", "[softmax]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      for (const char* shape : {"cpu", "gpu"}) {
        softmax_shapes<float>(device, shape);
        softmax_shapes<double>(device, shape);
        softmax_shapes<half>(device, shape);
      }
    }
  }
}

TEST_CASE("softmax_rows errors: small buffers, overflow", "[softmax]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context context(device);
      xgpu::Queue queue = context.queue();
      auto a = context.alloc<float>(12), b = context.alloc<float>(11);
      const xgpu::Errc invalid = xgpu::Errc::invalid_argument;
      check_error(capture_error([&] { xgpu::softmax_rows(queue, a, b, 3, 4); }), invalid,
                  {"xgpu::softmax_rows", "out", "11", "12"});
      check_error(capture_error([&] { xgpu::softmax_rows(queue, b, a, 2, 6); }), invalid,
                  {"xgpu::softmax_rows", "in"});
      check_error(capture_error([&] {
                    xgpu::softmax_rows(queue, a, a, std::size_t{1} << 40, std::size_t{1} << 30);
                  }),
                  invalid, {"xgpu::softmax_rows"});
      CHECK_FALSE(xgpu::softmax_rows(queue, a, b, 0, 4));
      {
        ScopedEnv forced("XGPU_SOFTMAX_SHAPE", std::string("rows"));
        check_error(capture_error([&] { xgpu::softmax_rows(queue, a, a, 3, 4); }), invalid,
                    {"XGPU_SOFTMAX_SHAPE", "rows"});
      }
      if (!device.info().fp64) {
        auto d = context.alloc<double>(4);
        check_error(capture_error([&] { xgpu::softmax_rows(queue, d, d, 2, 2); }),
                    xgpu::Errc::unsupported, {"xgpu::softmax_rows", "double"});
      }
    }
  }
}
