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

#include "../../tools/conform/float_subnormals.hpp"
#include "test_support.hpp"

using xgpu::half;
using namespace xgpu_test;

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
void softmax_shapes(const xgpu::Device& device) {
  if constexpr (!is_floating<T>) {
    return;
  } else {
    if (!supported<T>(device)) return;
    INFO(xgpu_test::setting_note("XGPU_SOFTMAX_SHAPE"));
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

    // Large magnitudes and infinities, in narrow (one item per row), one-vector (16: the CPU
    // layout's straight-line path) and wide rows.
    using S = xgpu::scalar_t<T>;
    const S inf = std::numeric_limits<S>::infinity(), nan = std::numeric_limits<S>::quiet_NaN();
    for (std::size_t cols : {std::size_t{6}, std::size_t{16}, std::size_t{300}}) {
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

// In the CTest entry's layout (XGPU_SOFTMAX_SHAPE, read once per process): the entries of
// tests/CMakeLists.txt run this case in each layout on each device.
TEST_CASE("softmax_rows of every floating type and shape", "[softmax][shaped]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      softmax_shapes<float>(device);
      softmax_shapes<double>(device);
      softmax_shapes<half>(device);
    }
  }
}

TEST_CASE("softmax_rows errors: small buffers, overflow", "[softmax]") {
  for_each_device([&](xgpu::Context& context, xgpu::Queue& queue, const xgpu::Device& device) {
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
    if (!device.info().fp64) {
      auto d = context.alloc<double>(4);
      check_error(capture_error([&] { xgpu::softmax_rows(queue, d, d, 2, 2); }),
                  xgpu::Errc::unsupported, {"xgpu::softmax_rows", "double"});
    }
  });
}

namespace {

/// Inputs for xgpu_exp.cl: the special values, the edges of its ranges (overflow, the
/// subnormal results, the underflow to 0, the clamp, the range reduction's half-way points
/// k ln2 +- ln2/2), every float near some of them, and random values across [-105, 90].
std::vector<float> exp_inputs(std::size_t random_count) {
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> x{0.0f,
                       -0.0f,
                       1.0f,
                       -1.0f,
                       inf,
                       -inf,
                       NAN,
                       -NAN,
                       88.72283f,
                       88.72284f,
                       88.7229f,
                       89.0f,
                       89.5f,
                       100.0f,
                       1e30f,
                       -87.33654f,
                       -87.3366f,
                       -100.0f,
                       -103.0f,
                       -103.27893f,
                       -103.9721f,
                       -103.97209f,
                       -104.0f,
                       -104.5f,
                       -110.0f,
                       -1e30f,
                       1e-10f,
                       -1e-10f,
                       std::numeric_limits<float>::min(),
                       std::numeric_limits<float>::denorm_min(),
                       -std::numeric_limits<float>::denorm_min(),
                       std::numeric_limits<float>::max(),
                       -std::numeric_limits<float>::max()};
  // Every float within 64 ulp of each edge above (the finite ones), and of k ln2 +- ln2/2.
  std::vector<float> edges;
  for (float e : x)
    if (std::isfinite(e)) edges.push_back(e);
  for (int k = -150; k <= 128; k += 7) {
    edges.push_back(static_cast<float>((k + 0.5) * 0.6931471805599453));
    edges.push_back(static_cast<float>(k * 0.6931471805599453));
  }
  for (float e : edges) {
    float below = e, above = e;
    for (int i = 0; i < 64; ++i) {
      below = std::nextafter(below, -inf);
      above = std::nextafter(above, inf);
      x.push_back(below);
      x.push_back(above);
    }
  }
  const std::vector<float> spread = random_values<float>(random_count, 13, -105, 90);
  x.insert(x.end(), spread.begin(), spread.end());
  const std::vector<float> small = random_values<float>(random_count / 4, 17, -1, 1);
  x.insert(x.end(), small.begin(), small.end());
  while (x.size() % 16 != 0) x.push_back(0.5f);  // whole float16 vectors
  return x;
}

/// The error of `got` against the exact e^x, in ulps of the float nearest it (2^-149 for
/// results in the subnormal range), as OpenCL C's accuracy table counts them; infinite when
/// got is inf or NaN and e^x is not. Where subnormals may be flushed (`flushing`), 0 is also
/// right for a result below FLT_MIN, and for a subnormal x, e^0.
double exp_ulp_error(float x, float got, bool flushing) {
  const long double exact = std::exp(static_cast<long double>(x));
  if (std::isnan(x)) return std::isnan(got) ? 0 : INFINITY;
  if (flushing && exact < std::numeric_limits<float>::min() && got == 0.0f) return 0;
  if (flushing && std::fpclassify(x) == FP_SUBNORMAL && got == 1.0f) return 0;
  const long double largest = std::numeric_limits<float>::max();
  // Past FLT_MAX by at least half its ulp (2^103), e^x rounds to inf: accept inf, or FLT_MAX
  // within the allowed ulps.
  if (exact >= largest + std::ldexp(1.0L, 103))
    return std::isinf(got) && got > 0 ? 0
                                      : (got == std::numeric_limits<float>::max() ? 1 : INFINITY);
  if (!std::isfinite(got)) return INFINITY;
  long double ulp = std::ldexp(1.0L, -149);  // below FLT_MIN: the subnormals' spacing
  if (exact >= std::numeric_limits<float>::min()) {
    int exponent = 0;
    std::frexp(exact, &exponent);  // exact = m 2^exponent, m in [0.5, 1)
    ulp = std::ldexp(1.0L, exponent - 24);
  }
  return static_cast<double>(std::fabs(static_cast<long double>(got) - exact) / ulp);
}

}  // namespace

// The CPU layout's own exp (kernels/xgpu_exp.cl) against long double, in both its forms, on
// every device: within OpenCL C's 3 ulp for exp in the full profile, with its special values
// (+inf past overflow, subnormal results, 0 for large negative x and -inf, NaN for NaN). Where
// subnormals may be flushed to zero (a device without CL_FP_DENORM, or a build with
// -cl-denorms-are-zero, which is built too, on fewer random inputs), so may the results below
// FLT_MIN and the subnormal inputs.
TEST_CASE("softmax CPU exp (xgpu_exp.cl) within 3 ulp with its special values", "[softmax]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    for (const std::string options : {"", "-cl-denorms-are-zero"}) {
      DYNAMIC_SECTION(device.describe() << " " << options) {
        const bool flushing = !options.empty() || !xgpu::conform::keeps_float_subnormals(device);
        xgpu::Context context(device);
        xgpu::Queue queue = context.queue();
        const xgpu::Program program = context.build(xgpu::Source{"exp_check.cl", R"(
#include "xgpu_exp.cl"
__kernel void exp_vectors(__global const float16* x, __global float16* y) {
  const size_t i = get_global_id(0);
  y[i] = xgpu_exp_float16(x[i]);
}
__kernel void exp_scalars(__global const float* x, __global float* y) {
  const size_t i = get_global_id(0);
  y[i] = xgpu_exp_float(x[i]);
}
)"},
                                                    options);
        const std::size_t random_count = is_oclgrind(device) ? 4096
                                         : options.empty()   ? 1 << 20
                                                             : 1 << 14;
        const std::vector<float> x = exp_inputs(random_count);
        const xgpu::Buffer<float> in = upload(context, queue, x);
        xgpu::Buffer<float> vectors = context.alloc<float>(x.size());
        xgpu::Buffer<float> scalars = context.alloc<float>(x.size());
        queue.launch(program.kernel("exp_vectors"), xgpu::Range{x.size() / 16}, in, vectors);
        queue.launch(program.kernel("exp_scalars"), xgpu::Range{x.size()}, in, scalars);
        const std::vector<float> got_vectors = queue.read(vectors),
                                 got_scalars = queue.read(scalars);
        double worst = 0;
        float worst_x = 0;
        std::size_t wrong = 0;
        for (std::size_t i = 0; i < x.size(); ++i) {
          for (float got : {got_vectors[i], got_scalars[i]}) {
            const double error = exp_ulp_error(x[i], got, flushing);
            if (error > worst) {
              worst = error;
              worst_x = x[i];
            }
            if (!(error <= 3) && wrong++ < 5)
              FAIL_CHECK("exp(" << x[i] << ") = " << got << ": " << error << " ulp");
          }
        }
        INFO("worst: " << worst << " ulp at x = " << worst_x << ", over " << x.size() << " inputs");
        CHECK(wrong == 0);
        CHECK(worst <= 3);
        // The exact special values, not only near ones.
        for (std::size_t i = 0; i < 6; ++i) {
          INFO("exp(" << x[i] << ")");
          CHECK(got_vectors[i] == got_scalars[i]);
        }
        CHECK(got_vectors[0] == 1.0f);
        CHECK(got_vectors[4] == std::numeric_limits<float>::infinity());
        CHECK(got_vectors[5] == 0.0f);
        CHECK(std::isnan(got_vectors[6]));
        CHECK(std::isnan(got_scalars[7]));
      }
    }
  }
}

// unit.icd.algorithms.bad_settings sets XGPU_SOFTMAX_SHAPE=rows (read once per process).
TEST_CASE("softmax_rows refuses an unknown XGPU_SOFTMAX_SHAPE", "[.bad_settings]") {
  REQUIRE(xgpu_test::env("XGPU_SOFTMAX_SHAPE") == std::string("rows"));
  for_each_device([&](xgpu::Context& context, xgpu::Queue& queue, const xgpu::Device&) {
    auto a = context.alloc<float>(12);
    check_error(capture_error([&] { xgpu::softmax_rows(queue, a, a, 3, 4); }),
                xgpu::Errc::invalid_argument, {"XGPU_SOFTMAX_SHAPE", "rows"});
  });
}
