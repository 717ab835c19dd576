// Reductions (sum, dot, min, max, argmin, argmax, norm2) on every device, for every element
// type, against host references: the required sizes (0, 1, 2, a prime, the work-group size
// -/+ 1, 2^20 + 3, and one near max_allocation / 8 bytes on PoCL), exactness where it is
// promised (integers, 2^24 float ones), the stated accuracy bounds for floats, NaN and
// infinity rules, and bad input. The size sweep and the ill-conditioned sums run in both
// layouts (XGPU_REDUCE_SHAPE=cpu: a contiguous chunk per item; gpu: vectors dealt
// round-robin) on every device. The scans are in test_scan.cpp.
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <type_traits>
#include <xgpu/algorithms.hpp>

#include "algorithms/sums.hpp"
#include "test_support.hpp"

using xgpu::half;
using namespace xgpu_test;

namespace {

// Checks a sum of count terms, term(i) each: integers exactly, modulo 2^32 (the terms are
// given modulo 2^32); floats against a Reference<T> sum, within roundings * u *
// sum(|term|) (the bounds of reduce.hpp; the reference's own error is far smaller).
template <class T, class Term>
void check_sum_of(Scalar<T> got, std::size_t count, Term term, double roundings) {
  if constexpr (std::is_integral_v<T>) {
    std::uint32_t wrapped = 0;
    for (std::size_t i = 0; i < count; ++i) wrapped += static_cast<std::uint32_t>(term(i));
    CHECK(static_cast<std::uint32_t>(got) == wrapped);
  } else {
    Reference<T> exact = 0, magnitude = 0;
    for (std::size_t i = 0; i < count; ++i) {
      const Reference<T> t = term(i);
      exact += t;
      magnitude += std::fabs(t);
    }
    const double bound = roundings * unit_roundoff<T>() * double(magnitude);
    INFO("got " << got << ", expected " << double(exact) << " within " << bound);
    CHECK(std::fabs(double(got) - double(exact)) <= bound);
  }
}

// sum: 40 u sum(|x|) for floats.
template <class T>
void check_sum(xgpu::Queue& queue, const std::vector<T>& host, const xgpu::Buffer<T>& x) {
  INFO(type_name<T>() << " sum of " << host.size());
  auto term = [&](std::size_t i) {
    if constexpr (std::is_integral_v<T>) {
      return static_cast<std::uint32_t>(host[i]);
    } else {
      return static_cast<Reference<T>>(value_of(host[i]));
    }
  };
  check_sum_of<T>(xgpu::sum(queue, x), host.size(), term, 40);
}

// dot: 41 u sum(|x y|) for floats (products round once more than sum's terms). Integer
// products are taken modulo 2^32, as the device's wrap.
template <class T>
void check_dot(xgpu::Queue& queue, const std::vector<T>& x, const xgpu::Buffer<T>& dx,
               const std::vector<T>& y, const xgpu::Buffer<T>& dy) {
  INFO(type_name<T>() << " dot of " << x.size());
  auto term = [&](std::size_t i) {
    if constexpr (std::is_integral_v<T>) {
      return static_cast<std::uint32_t>(x[i]) * static_cast<std::uint32_t>(y[i]);
    } else {
      return static_cast<Reference<T>>(value_of(x[i])) * value_of(y[i]);
    }
  };
  check_sum_of<T>(xgpu::dot(queue, dx, dy), x.size(), term, 41);
}

// min, max, argmin and argmax against std::min_element and std::max_element, which return the
// first of equal elements (the inputs here have no NaN).
template <class T>
void check_extremes(xgpu::Queue& queue, const std::vector<T>& host, const xgpu::Buffer<T>& x) {
  INFO(type_name<T>() << " extremes of " << host.size());
  auto less = [](T a, T b) { return value_of(a) < value_of(b); };
  const auto smallest = std::min_element(host.begin(), host.end(), less);
  const auto largest = std::max_element(host.begin(), host.end(), less);
  // std::max_element returns the first largest too.
  CHECK(xgpu::min(queue, x) == value_of(*smallest));
  CHECK(xgpu::max(queue, x) == value_of(*largest));
  CHECK(xgpu::argmin(queue, x) == std::size_t(smallest - host.begin()));
  CHECK(xgpu::argmax(queue, x) == std::size_t(largest - host.begin()));
}

template <class T>
void check_norm2(xgpu::Queue& queue, const std::vector<T>& host, const xgpu::Buffer<T>& x) {
  INFO(type_name<T>() << " norm2 of " << host.size());
  Reference<T> squares = 0;
  for (T v : host) squares += static_cast<Reference<T>>(value_of(v)) * value_of(v);
  const double exact = static_cast<double>(std::sqrt(squares));
  const Scalar<T> got = xgpu::norm2(queue, x);
  // The relative bound of reduce.hpp: 24 u.
  INFO("got " << got << ", expected " << exact);
  CHECK(std::fabs(double(got) - exact) <= 24 * unit_roundoff<T>() * exact);
}

void refuse_double(xgpu::Context& context, xgpu::Queue& queue) {
  xgpu::Buffer<double> x = context.alloc<double>(4);
  check_error(capture_error([&] { xgpu::sum(queue, x); }), xgpu::Errc::unsupported, {"fp64"});
}

// Every reduction of T at the required sizes, in the layout of this process (XGPU_REDUCE_SHAPE
// is read once per process; tests/CMakeLists.txt runs the [shaped] cases in each layout).
template <class T>
void check_required_sizes(xgpu::Context& context, xgpu::Queue& queue) {
  INFO(xgpu_test::setting_note("XGPU_REDUCE_SHAPE"));
  unsigned seed = 1;
  for (std::size_t n : xgpu_test::sum_sizes<T>(queue)) {
    const std::vector<T> x = random_terms<T>(n, seed++), y = random_terms<T>(n, seed++);
    const xgpu::Buffer<T> dx = upload(context, queue, x), dy = upload(context, queue, y);
    check_sum(queue, x, dx);
    check_dot(queue, x, dx, y, dy);
    if (n > 0) check_extremes(queue, x, dx);
    if constexpr (!std::is_integral_v<T>) check_norm2(queue, x, dx);
  }
}

}  // namespace

// [shaped]: in each layout on each device, through the CTest entries.
TEST_CASE("sum, dot, extremes and norm2 of every type at the required sizes", "[reduce][shaped]") {
  xgpu_test::for_each_device_and_type(
      [](xgpu::Context& context, xgpu::Queue& queue, auto tag) {
        check_required_sizes<decltype(tag)>(context, queue);
      },
      refuse_double);
}

// bfloat16 accumulates in float like half (the scans and the other operations do not take
// bfloat16, so for_each_device_and_type leaves it out). Sums of values with 8 significant
// bits: the float accumulation's bound, 40 u sum |x| with u = 2^-24, is what holds.
TEST_CASE("sum, dot, extremes and norm2 of bfloat16 at the required sizes", "[reduce][shaped]") {
  for_each_device([&](xgpu::Context& context, xgpu::Queue& queue, const xgpu::Device&) {
    check_required_sizes<xgpu::bfloat16>(context, queue);
  });
}

TEST_CASE("reductions near max_allocation / 8 bytes (PoCL)", "[reduce]") {
  on_first_pocl([](xgpu::Context& context, xgpu::Queue& queue, const xgpu::Device& pocl) {
    // Float for every operation, one upload. Each transfer of 128 MiB costs a good part of a
    // second here, so there are few of them.
    const std::size_t n = large_size<float>(pocl);
    const std::vector<float> x = random_terms<float>(n, 7);
    const xgpu::Buffer<float> dx = upload(context, queue, x);
    check_sum(queue, x, dx);
    check_extremes(queue, x, dx);
    check_norm2(queue, x, dx);
    check_dot(queue, x, dx, x, dx);
  });
}

TEST_CASE("summing 2^24 float ones is exact", "[reduce]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    if (is_oclgrind(device)) continue;  // 16M interpreted work-item loads: minutes
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context context(device);
      xgpu::Queue queue = context.queue();
      const std::size_t n = std::size_t{1} << 24;
      xgpu::Buffer<float> ones = context.alloc<float>(n);
      queue.fill(ones, 1.0f);
      CHECK(xgpu::sum(queue, ones) == 16777216.0f);
      CHECK(xgpu::dot(queue, ones, ones) == 16777216.0f);
      CHECK(xgpu::norm2(queue, ones) == 4096.0f);
      xgpu::Buffer<half> half_ones = context.alloc<half>(n);
      queue.fill(half_ones, xgpu::to_half(1.0f));
      CHECK(xgpu::sum(queue, half_ones) == 16777216.0f);
      // One more: a sequential float sum would stall at 2^24.
      xgpu::Buffer<float> more = context.alloc<float>(n + 1);
      queue.fill(more, 1.0f);
      CHECK(xgpu::sum(queue, more) == 16777216.0f);  // 2^24 + 1 rounds to even: 2^24
      xgpu::Buffer<float> twos = context.alloc<float>(n + 2);
      queue.fill(twos, 1.0f);
      CHECK(xgpu::sum(queue, twos) == 16777218.0f);  // representable: exact
    }
  }
}

TEST_CASE("float sums meet their bound on ill-conditioned data", "[reduce][shaped]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe() << " " << xgpu_test::setting_note("XGPU_REDUCE_SHAPE")) {
      xgpu::Context context(device);
      xgpu::Queue queue = context.queue();
      // Values spread over 20 binades with both signs, and pairs that nearly cancel: a plain
      // sum of 2^20 of them loses far more than 40 u sum(|x|) only when badly ordered, so
      // this checks the bound where it is tight rather than typical data.
      const std::size_t n = is_oclgrind(device) ? 4099 : (std::size_t{1} << 20) + 3;
      std::mt19937 random(11);
      std::uniform_real_distribution<double> mantissa(1.0, 2.0);
      std::uniform_int_distribution<int> exponent(-10, 10);
      std::vector<float> x(n);
      std::vector<double> xd(n);
      for (std::size_t i = 0; i < n; ++i) {
        const double v = (i % 2 ? -1 : 1) * std::ldexp(mantissa(random), exponent(random));
        x[i] = static_cast<float>(v);
        xd[i] = v;
      }
      const xgpu::Buffer<float> dx = upload(context, queue, x);
      check_sum(queue, x, dx);
      check_dot(queue, x, dx, x, dx);
      if (device.info().fp64) check_sum(queue, xd, upload(context, queue, xd));
      // Large then small: 1e8 then ones, where the ones vanish from a plain float sum.
      std::vector<float> step(n, 1.0f);
      step[0] = 1e8f;
      check_sum(queue, step, upload(context, queue, step));
    }
  }
}

TEST_CASE("integer sums and dots wrap modulo 2^32", "[reduce]") {
  for_each_device([&](xgpu::Context& context, xgpu::Queue& queue, const xgpu::Device&) {
    const std::size_t n = 3001;
    std::vector<std::uint32_t> u(n, 0xF0000001u);
    std::uint32_t expected = 0;
    for (std::uint32_t v : u) expected += v;
    CHECK(xgpu::sum(queue, upload(context, queue, u)) == expected);
    std::uint32_t expected_dot = 0;
    for (std::uint32_t v : u) expected_dot += v * v;
    CHECK(xgpu::dot(queue, upload(context, queue, u), upload(context, queue, u)) == expected_dot);

    std::vector<std::int32_t> s(n, std::numeric_limits<std::int32_t>::max());
    std::uint32_t wrapped = 0;
    for (std::int32_t v : s) wrapped += static_cast<std::uint32_t>(v);
    CHECK(xgpu::sum(queue, upload(context, queue, s)) == static_cast<std::int32_t>(wrapped));
  });
}

TEST_CASE("extremes: ties give the first index, NaN is the most extreme", "[reduce]") {
  for_each_device([&](xgpu::Context& context, xgpu::Queue& queue, const xgpu::Device& device) {
    const std::size_t n = is_oclgrind(device) ? 3001 : 100003;
    // Ties everywhere: every value appears many times; the first of each extreme must win,
    // across lanes, items and groups.
    std::vector<std::int32_t> ties(n);
    for (std::size_t i = 0; i < n; ++i) ties[i] = static_cast<std::int32_t>((i * 7919) % 13) - 6;
    check_extremes(queue, ties, upload(context, queue, ties));
    // All equal: index 0.
    std::vector<float> flat(n, 2.5f);
    xgpu::Buffer<float> x = upload(context, queue, flat);
    CHECK(xgpu::argmin(queue, x) == 0);
    CHECK(xgpu::argmax(queue, x) == 0);
    // Infinities are values like others; all -inf still has a first index.
    std::vector<float> infinite(n, -INFINITY);
    x = upload(context, queue, infinite);
    CHECK(xgpu::argmax(queue, x) == 0);
    CHECK(xgpu::max(queue, x) == -INFINITY);
    infinite[n - 2] = INFINITY;
    x = upload(context, queue, infinite);
    CHECK(xgpu::argmax(queue, x) == n - 2);
    CHECK(xgpu::argmin(queue, x) == 0);
    // NaN: min and max give NaN, argmin and argmax the first NaN.
    std::vector<float> with_nan = random_terms<float>(n, 3);
    with_nan[n / 3] = NAN;
    with_nan[n - 1] = NAN;
    with_nan[n / 2] = INFINITY;
    x = upload(context, queue, with_nan);
    CHECK(std::isnan(xgpu::min(queue, x)));
    CHECK(std::isnan(xgpu::max(queue, x)));
    CHECK(xgpu::argmin(queue, x) == n / 3);
    CHECK(xgpu::argmax(queue, x) == n / 3);
    // Half: compared as float.
    std::vector<half> halves(n, xgpu::to_half(1.0f));
    halves[n - 5] = xgpu::to_half(-3.0f);
    halves[n - 4] = xgpu::to_half(-3.0f);
    xgpu::Buffer<half> h = upload(context, queue, halves);
    CHECK(xgpu::argmin(queue, h) == n - 5);
    CHECK(xgpu::min(queue, h) == -3.0f);
  });
}

TEST_CASE("sums and norm2 of NaN, infinities and extreme magnitudes", "[reduce]") {
  for_each_device([&](xgpu::Context& context, xgpu::Queue& queue, const xgpu::Device&) {
    const std::size_t n = 5000;
    std::vector<float> x(n, 1.0f);
    x[17] = INFINITY;
    CHECK(xgpu::sum(queue, upload(context, queue, x)) == INFINITY);
    CHECK(xgpu::norm2(queue, upload(context, queue, x)) == INFINITY);
    x[4000] = -INFINITY;
    CHECK(std::isnan(xgpu::sum(queue, upload(context, queue, x))));
    x.assign(n, 1.0f);
    x[4321] = NAN;
    CHECK(std::isnan(xgpu::sum(queue, upload(context, queue, x))));
    CHECK(std::isnan(xgpu::norm2(queue, upload(context, queue, x))));
    // Overflow of the sum itself: infinity, as a plain sum would give.
    x.assign(n, 3e38f);
    CHECK(xgpu::sum(queue, upload(context, queue, x)) == INFINITY);
    // norm2 must not overflow where the squares would (1e30^2), nor vanish where they
    // would underflow (1e-30^2), nor fail on subnormals or the largest float.
    for (float magnitude : {1e30f, 1e-30f, 1e-44f, FLT_MAX / 100}) {
      INFO("norm2 of " << n << " times " << magnitude);
      x.assign(n, magnitude);
      const double expected = double(magnitude) * std::sqrt(double(n));
      CHECK(std::fabs(xgpu::norm2(queue, upload(context, queue, x)) - expected) <=
            24 * std::ldexp(1.0, -24) * expected + (magnitude < FLT_MIN ? expected * 1e-2 : 0));
    }
    x.assign(n, 0.0f);
    CHECK(xgpu::norm2(queue, upload(context, queue, x)) == 0.0f);
    // Halves up to their largest value, summed and squared in float.
    std::vector<half> h(n, xgpu::to_half(65504.0f));
    CHECK(xgpu::sum(queue, upload(context, queue, h)) == 65504.0f * n);
    CHECK(std::fabs(xgpu::norm2(queue, upload(context, queue, h)) - 65504.0 * std::sqrt(n)) <=
          24 * std::ldexp(1.0, -24) * 65504.0 * std::sqrt(n));
  });
}

TEST_CASE("reductions of empty buffers and mismatched sizes", "[reduce]") {
  for_each_device([&](xgpu::Context& context, xgpu::Queue& queue, const xgpu::Device&) {
    SizeCases sizes = size_cases(context, queue);
    xgpu::Buffer<float>&empty = sizes.empty, &other = sizes.other;
    xgpu::Buffer<float>&three = sizes.three, &four = sizes.four;
    CHECK(xgpu::sum(queue, empty) == 0.0f);
    CHECK(xgpu::sum(queue, xgpu::Buffer<std::int32_t>()) == 0);
    CHECK(xgpu::dot(queue, empty, other) == 0.0f);
    CHECK(xgpu::norm2(queue, empty) == 0.0f);
    for (auto* call : {"xgpu::min", "xgpu::max", "xgpu::argmin", "xgpu::argmax"}) {
      INFO(call);
      const std::string name = call;
      auto run = [&] {
        if (name == "xgpu::min") xgpu::min(queue, empty);
        if (name == "xgpu::max") xgpu::max(queue, empty);
        if (name == "xgpu::argmin") xgpu::argmin(queue, empty);
        if (name == "xgpu::argmax") xgpu::argmax(queue, empty);
      };
      check_error(capture_error(run), xgpu::Errc::invalid_argument, {name, "empty"});
    }
    check_error(capture_error([&] { xgpu::dot(queue, three, four); }), xgpu::Errc::invalid_argument,
                {"xgpu::dot", "4", "3"});
    check_error(capture_error([&] { xgpu::dot(queue, empty, three); }),
                xgpu::Errc::invalid_argument, {"xgpu::dot", "3", "0"});
    // An empty queue.
    xgpu::Queue none;
    check_error(capture_error([&] { xgpu::sum(none, three); }), xgpu::Errc::invalid_handle);
    // The buffers are untouched by the refused calls.
    CHECK(queue.read(three) == std::vector<float>(3, 1.0f));
  });
}

TEST_CASE("reductions follow earlier commands in the queue", "[reduce]") {
  for_each_device([&](xgpu::Context& context, xgpu::Queue& queue, const xgpu::Device&) {
    const std::size_t n = 4097;
    // Written, not filled: Oclgrind counts filled memory as uninitialized.
    xgpu::Buffer<std::uint32_t> in = upload(context, queue, std::vector<std::uint32_t>(n, 1u));
    // Written before the kernels write it: Oclgrind (21.10) may otherwise check a buffer
    // that only kernels wrote against a stale record of an older, smaller buffer.
    xgpu::Buffer<std::uint32_t> out = upload(context, queue, std::vector<std::uint32_t>(n));
    xgpu::inclusive_scan(queue, in, out);  // 1, 2, ..., n; not waited for
    CHECK(xgpu::sum(queue, out) == n * (n + 1) / 2);
    CHECK(xgpu::argmax(queue, out) == n - 1);
    xgpu::exclusive_scan(queue, out, out, 10u);  // 10, 11, 13, ...
    CHECK(xgpu::min(queue, out) == 10u);
  });
}

// unit.icd.algorithms.bad_settings sets XGPU_REDUCE_SHAPE=striped (read once per process).
TEST_CASE("reductions refuse an unknown XGPU_REDUCE_SHAPE", "[.bad_settings]") {
  REQUIRE(xgpu_test::env("XGPU_REDUCE_SHAPE") == std::string("striped"));
  for_each_device([&](xgpu::Context& context, xgpu::Queue& queue, const xgpu::Device&) {
    xgpu::Buffer<float> three = upload(context, queue, std::vector<float>(3, 1.0f));
    check_error(capture_error([&] { xgpu::sum(queue, three); }), xgpu::Errc::invalid_argument,
                {"XGPU_REDUCE_SHAPE", "striped"});
    CHECK(queue.read(three) == std::vector<float>(3, 1.0f));  // untouched by the refused call
  });
}
