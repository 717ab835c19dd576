// Reductions and scans on every device, for every element type, against host references:
// the required sizes (0, 1, 2, a prime, the work-group size -/+ 1, 2^20 + 3, and one near
// max_allocation / 8 bytes on PoCL), exactness where it is promised (integers, 2^24 float
// ones), the stated accuracy bounds for floats, NaN and infinity rules, and bad input.
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <type_traits>
#include <xgpu/algorithms.hpp>
#include <xgpu/kernels.hpp>

#include "test_support.hpp"

using xgpu_test::capture_error;
using xgpu_test::check_error;
using xgpu_test::is_oclgrind;
using xgpu_test::is_pocl;

namespace {

// The single-pass scan publishes tile totals with OpenCL 1.2 relaxed atomics and fences,
// which order memory between work-groups on CPU devices (and in Oclgrind, which runs groups
// one after another) but not by the specification in general: xgpu uses it only on those
// devices, and the tests force it only there.
bool single_pass_safe(const xgpu::Device& device) {
  return (device.info().type & xgpu::DeviceType::cpu) != 0;
}

using xgpu::half;

// Host values of elements: half as float, the rest as themselves.
template <class T>
using Scalar = xgpu::scalar_t<T>;

template <class T>
Scalar<T> value_of(T element) {
  if constexpr (std::is_same_v<T, half>) {
    return xgpu::to_float(element);
  } else {
    return element;
  }
}

template <class T>
T element_of(double value) {
  if constexpr (std::is_same_v<T, half>) {
    return xgpu::to_half(static_cast<float>(value));
  } else {
    return static_cast<T>(value);
  }
}

template <class T>
const char* type_name() {
  if constexpr (std::is_same_v<T, float>) return "float";
  if constexpr (std::is_same_v<T, double>) return "double";
  if constexpr (std::is_same_v<T, std::int32_t>) return "int32";
  if constexpr (std::is_same_v<T, std::uint32_t>) return "uint32";
  if constexpr (std::is_same_v<T, half>) return "half";
}

// The unit roundoff of a type's arithmetic (half computes in float).
template <class T>
double unit_roundoff() {
  return std::is_same_v<T, double> ? std::ldexp(1.0, -53) : std::ldexp(1.0, -24);
}

// The host reference's arithmetic: double checks float results (its error, at most
// n 2^-53 sum(|x|), stays below 1/500 of the float bounds for the n <= 2^25 here) at a tenth of
// the cost of long double, which (64-bit mantissa on x86) checks double results.
template <class T>
using Reference = std::conditional_t<std::is_same_v<T, double>, long double, double>;

// Random elements with both signs (uint: non-negative); integers small enough that the
// sums of the tests do not wrap, except in the test of wrapping. A small xorshift generator:
// std::mt19937 with a distribution takes seconds for the 32M elements of the large sizes.
template <class T>
std::vector<T> random_elements(std::size_t n, unsigned seed) {
  std::uint64_t state = 0x9E3779B97F4A7C15ull * (seed + 1);
  auto next = [&state] {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  std::vector<T> values(n);
  for (T& v : values) {
    const std::uint64_t bits = next();
    if constexpr (std::is_integral_v<T>) {
      const int value = static_cast<int>(bits % 2001);  // 0 .. 2000
      v = static_cast<T>(std::is_signed_v<T> ? value - 1000 : value / 2);
    } else {
      // 53 random bits as a double in [-1, 1)
      v = element_of<T>(static_cast<double>(bits >> 11) * 0x1.0p-52 - 1.0);
    }
  }
  return values;
}

template <class T>
xgpu::Buffer<T> upload(xgpu::Context& context, xgpu::Queue& queue, const std::vector<T>& host) {
  xgpu::Buffer<T> buffer = context.alloc<T>(host.size());
  queue.write(buffer, host);
  return buffer;
}

// The sizes every operation is tried at: 0, 1, 2, a prime, the reductions' work-group size
// -/+ 1, a size with vector tails, and 2^20 + 3 (on Oclgrind, which interprets every
// work-item, the prime 4099).
template <class T>
std::vector<std::size_t> sizes(xgpu::Queue& queue) {
  const std::size_t group = xgpu::detail::reduce_work_group_size<T>(queue);
  std::vector<std::size_t> list{0, 1, 2, 97, group - 1, group + 1, 16 * group + 17};
  list.push_back(is_oclgrind(queue.device()) ? 4099 : (std::size_t{1} << 20) + 3);
  return list;
}

// About max_allocation / 8 bytes of T (PoCL: 1 GiB / 8 = 128 MiB), not a round number.
template <class T>
std::size_t large_size(const xgpu::Device& device) {
  return device.info().max_allocation / 8 / sizeof(T) - 13;
}

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

// Scans against a Reference<T> running sum: floats within the bound of scan.hpp,
// (i + 64) u sum(|x[0..i]|), plus for half the rounding of each result to half.
template <class T>
void check_scan_values(const std::vector<T>& host, const std::vector<T>& got, bool inclusive,
                       Scalar<T> init) {
  REQUIRE(got.size() == host.size());
  Reference<T> running = init, magnitude = std::fabs(static_cast<Reference<T>>(init));
  if constexpr (std::is_integral_v<T>) {
    // Integers wrap modulo 2^32: the reference is computed in uint32 too.
    std::uint32_t wrapped = static_cast<std::uint32_t>(init);
    for (std::size_t i = 0; i < host.size(); ++i) {
      if (inclusive) wrapped += static_cast<std::uint32_t>(host[i]);
      if (static_cast<std::uint32_t>(got[i]) != wrapped) {
        FAIL_CHECK("element " << i << ": expected " << static_cast<T>(wrapped) << ", got "
                              << got[i]);
        return;
      }
      if (!inclusive) wrapped += static_cast<std::uint32_t>(host[i]);
    }
  } else {
    for (std::size_t i = 0; i < host.size(); ++i) {
      const Reference<T> value = value_of(host[i]);
      if (inclusive) {
        running += value;
        magnitude += std::fabs(value);
      }
      double bound = (double(i) + 64) * unit_roundoff<T>() * double(magnitude);
      // Half: each result is rounded to half (relative 2^-11, or 2^-25 among subnormals).
      if (std::is_same_v<T, half>)
        bound += std::fabs(double(running)) * std::ldexp(1.0, -11) + std::ldexp(1.0, -25);
      const double error = std::fabs(double(value_of(got[i])) - double(running));
      if (!(error <= bound)) {
        FAIL_CHECK("element " << i << ": expected " << double(running) << ", got "
                              << value_of(got[i]) << " (bound " << bound << ")");
        return;
      }
      if (!inclusive) {
        running += value;
        magnitude += std::fabs(value);
      }
    }
  }
}

using xgpu::detail::ScanMethod;

const char* method_name(ScanMethod method) {
  switch (method) {
    case ScanMethod::three_launches:
      return "three launches";
    case ScanMethod::single_pass:
      return "single pass";
    default:
      return "automatic";
  }
}

// One scan through the public functions (automatic) or a given method.
template <class T>
xgpu::Event run_scan(xgpu::Queue& queue, const xgpu::Buffer<T>& in, const xgpu::Buffer<T>& out,
                     bool inclusive, Scalar<T> init, ScanMethod method) {
  if (method == ScanMethod::automatic)
    return inclusive ? xgpu::inclusive_scan(queue, in, out)
                     : xgpu::exclusive_scan(queue, in, out, init);
  return xgpu::detail::scan(queue, in, out, init, inclusive, "test scan", method);
}

// Inclusive and exclusive (with an init value), into another buffer and in place, by both of
// scan.cl's ways whatever the library would pick on the device, and through the public
// functions.
template <class T>
void check_scans(xgpu::Context& context, xgpu::Queue& queue, const std::vector<T>& host) {
  INFO(type_name<T>() << " scans of " << host.size());
  xgpu::Buffer<T> in = upload(context, queue, host);
  xgpu::Buffer<T> out = context.alloc<T>(host.size());
  const Scalar<T> init = Scalar<T>(std::is_signed_v<Scalar<T>> ? -7 : 7);
  for (ScanMethod method :
       {ScanMethod::three_launches, ScanMethod::single_pass, ScanMethod::automatic}) {
    INFO(method_name(method));
    if (method == ScanMethod::single_pass && !single_pass_safe(queue.device())) continue;
    run_scan(queue, in, out, true, Scalar<T>(0), method);
    check_scan_values(host, queue.read(out), true, Scalar<T>(0));
    run_scan(queue, in, out, false, init, method).wait();
    check_scan_values(host, queue.read(out), false, init);
    CHECK(queue.read(in) == host);  // not written
    // In place (the single pass then runs as three launches): once per method is enough.
    if (method == ScanMethod::automatic) continue;
    run_scan(queue, in, in, false, Scalar<T>(0), method);
    check_scan_values(host, queue.read(in), false, Scalar<T>(0));
    queue.write(in, host);
    run_scan(queue, in, in, true, Scalar<T>(0), method);
    check_scan_values(host, queue.read(in), true, Scalar<T>(0));
    queue.write(in, host);
  }
}

// Runs `body<T>` for every element type on every device; double is checked to be refused
// with a reason on devices without fp64.
template <class Body>
void for_each_type(Body&& body) {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context context(device);
      xgpu::Queue queue = context.queue();
      body(context, queue, float{});
      body(context, queue, std::int32_t{});
      body(context, queue, std::uint32_t{});
      body(context, queue, half{});
      if (device.info().fp64) {
        body(context, queue, double{});
      } else {
        WARN("double skipped on " << device.describe() << ": no fp64 (cl_khr_fp64)");
        xgpu::Buffer<double> x = context.alloc<double>(4);
        check_error(capture_error([&] { xgpu::sum(queue, x); }), xgpu::Errc::unsupported, {"fp64"});
        check_error(capture_error([&] { xgpu::inclusive_scan(queue, x, x); }),
                    xgpu::Errc::unsupported, {"fp64"});
      }
    }
  }
}

}  // namespace

TEST_CASE("sum, dot, extremes and norm2 of every type at the required sizes", "[reduce]") {
  for_each_type([](xgpu::Context& context, xgpu::Queue& queue, auto tag) {
    using T = decltype(tag);
    unsigned seed = 1;
    for (std::size_t n : sizes<T>(queue)) {
      const std::vector<T> x = random_elements<T>(n, seed++), y = random_elements<T>(n, seed++);
      const xgpu::Buffer<T> dx = upload(context, queue, x), dy = upload(context, queue, y);
      check_sum(queue, x, dx);
      check_dot(queue, x, dx, y, dy);
      if (n > 0) check_extremes(queue, x, dx);
      if constexpr (!std::is_integral_v<T>) check_norm2(queue, x, dx);
    }
  });
}

TEST_CASE("scans of every type at the required sizes, in place and not", "[reduce]") {
  for_each_type([](xgpu::Context& context, xgpu::Queue& queue, auto tag) {
    using T = decltype(tag);
    unsigned seed = 100;
    for (std::size_t n : sizes<T>(queue))
      check_scans(context, queue, random_elements<T>(n, seed++));
  });
}

TEST_CASE("the single-pass scan gives the same bits every time", "[reduce]") {
  // Its tiles take their prefixes from whichever tiles before them are done (see scan.cl),
  // yet always add the same way: repeated runs, with other work in between, must agree.
  for (const xgpu::Device& device : xgpu::devices()) {
    if (!single_pass_safe(device)) continue;
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context context(device);
      xgpu::Queue queue = context.queue();
      const std::size_t n = is_oclgrind(device) ? 4099 : (std::size_t{1} << 20) + 3;
      const std::vector<float> host = random_elements<float>(n, 21);
      const xgpu::Buffer<float> in = upload(context, queue, host);
      xgpu::Buffer<float> out = context.alloc<float>(n);
      std::vector<float> first;
      for (int run = 0; run < 3; ++run) {
        xgpu::detail::scan(queue, in, out, 0.5f, false, "test scan", ScanMethod::single_pass);
        const std::vector<float> got = queue.read(out);
        if (run == 0) {
          first = got;
          check_scan_values(host, got, false, 0.5f);
        } else {
          CHECK(std::memcmp(got.data(), first.data(), n * sizeof(float)) == 0);
        }
        xgpu::sum(queue, in);  // other work between the runs
      }
    }
  }
}

TEST_CASE("the single-pass scan adds the input of tiles that are not done", "[reduce]") {
  // White box: the kernel itself, with the tile counter set so that the first group to run
  // takes the last tile while no other tile has published anything. It must add all their
  // input itself (the look-back's fallback), then the other groups finish the scan.
  for (const xgpu::Device& device : xgpu::devices()) {
    if (!single_pass_safe(device)) continue;
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context context(device);
      xgpu::Queue queue = context.queue();
      const xgpu::Kernel kernel =
          context
              .build(xgpu::kernels::source("scan.cl"), "-DXGPU_T=float -DXGPU_T_FLOAT -DXGPU_W=4")
              .kernel("xgpu_scan_single_pass");
      const unsigned n = 1001, items = 4, chunk = 8,
                     tiles = (n + items * chunk - 1) / (items * chunk);
      const std::vector<float> host = random_elements<float>(n, 33);
      const xgpu::Buffer<float> in = upload(context, queue, host);
      xgpu::Buffer<float> out = upload(context, queue, std::vector<float>(n));
      std::vector<std::uint32_t> status(tiles + 1, 0);
      status[0] = tiles - 1;  // the next tile to take: the last
      xgpu::Buffer<std::uint32_t> dstatus = upload(context, queue, status);
      xgpu::Buffer<std::uint32_t> values =
          upload(context, queue, std::vector<std::uint32_t>(2 * tiles));
      auto launch = [&](std::size_t groups) {
        queue.launch(kernel, xgpu::Range{groups * items}, xgpu::Range{items}, n, chunk, 1u, 2.0f,
                     in, out, dstatus, values, xgpu::Local<float>(items * 4 + 1),
                     xgpu::Local<std::uint32_t>(1));
      };
      launch(1);
      std::vector<float> got = queue.read(out);
      const std::size_t last = std::size_t{tiles - 1} * items * chunk;
      // The last tile alone, against a double reference with init 2 (|x| <= 1, so the bound of
      // scan.hpp is at most (i + 64) u (2 + i)).
      double running = 2.0;
      for (std::size_t i = 0; i < n; ++i) {
        running += host[i];
        if (i < last) continue;
        INFO("element " << i);
        CHECK(std::fabs(got[i] - running) <= (i + 64) * std::ldexp(1.0, -24) * (2.0 + i));
      }
      // The other tiles, with the counter back at 0.
      status = queue.read(dstatus);
      CHECK(status[0] == tiles);
      CHECK(status[tiles] == 2u);  // the last tile's prefix is out
      status[0] = 0;
      queue.write(dstatus, status);
      launch(tiles - 1);
      got = queue.read(out);
      std::vector<float> from_init(host);
      from_init[0] += 2.0f;
      check_scan_values(from_init, got, true, 0.0f);
    }
  }
}

TEST_CASE("reductions and scans near max_allocation / 8 bytes (PoCL)", "[reduce]") {
  // On the first PoCL device only: elsewhere too slow (Oclgrind) or not run in CI, and a
  // second PoCL device runs the same code on the same memory (its seconds of host work and
  // transfers would add nothing).
  const std::vector<xgpu::Device> all = xgpu::devices();
  const auto pocl = std::find_if(all.begin(), all.end(), is_pocl);
  for (const xgpu::Device& device : all) {
    if (pocl == all.end() || device != *pocl) continue;
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context context(device);
      xgpu::Queue queue = context.queue();
      // Float for every operation, one upload; int32 for an exclusive scan in place. Each
      // transfer of 128 MiB costs a good part of a second here, so there are few of them.
      const std::size_t n = large_size<float>(device);
      const std::vector<float> x = random_elements<float>(n, 7);
      const xgpu::Buffer<float> dx = upload(context, queue, x);
      check_sum(queue, x, dx);
      check_extremes(queue, x, dx);
      check_norm2(queue, x, dx);
      check_dot(queue, x, dx, x, dx);
      xgpu::Buffer<float> out = context.alloc<float>(n);
      xgpu::inclusive_scan(queue, dx, out);
      check_scan_values(x, queue.read(out), true, 0.0f);
      const std::vector<std::int32_t> ints =
          random_elements<std::int32_t>(large_size<std::int32_t>(device), 8);
      xgpu::Buffer<std::int32_t> dints = upload(context, queue, ints);
      // (xgpu::inclusive_scan above ran the single pass, which PoCL gets; this one the other.)
      xgpu::detail::scan(queue, dints, dints, -5, false, "test scan", ScanMethod::three_launches);
      check_scan_values(ints, queue.read(dints), false, -5);
    }
  }
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

TEST_CASE("float sums meet their bound on ill-conditioned data", "[reduce]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
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

TEST_CASE("integer sums, dots and scans wrap modulo 2^32", "[reduce]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context context(device);
      xgpu::Queue queue = context.queue();
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
      check_scans(context, queue, s);
      check_scans(context, queue, u);
    }
  }
}

TEST_CASE("extremes: ties give the first index, NaN is the most extreme", "[reduce]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context context(device);
      xgpu::Queue queue = context.queue();
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
      std::vector<float> with_nan = random_elements<float>(n, 3);
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
    }
  }
}

TEST_CASE("sums and norm2 of NaN, infinities and extreme magnitudes", "[reduce]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context context(device);
      xgpu::Queue queue = context.queue();
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
    }
  }
}

TEST_CASE("empty buffers and mismatched sizes", "[reduce]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context context(device);
      xgpu::Queue queue = context.queue();
      xgpu::Buffer<float> empty = context.alloc<float>(0), other = context.alloc<float>(0);
      // Written, not filled: Oclgrind counts filled memory as uninitialized.
      xgpu::Buffer<float> three = upload(context, queue, std::vector<float>(3, 1.0f));
      xgpu::Buffer<float> four = upload(context, queue, std::vector<float>(4, 1.0f));
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
      check_error(capture_error([&] { xgpu::dot(queue, three, four); }),
                  xgpu::Errc::invalid_argument, {"xgpu::dot", "4", "3"});
      check_error(capture_error([&] { xgpu::dot(queue, empty, three); }),
                  xgpu::Errc::invalid_argument, {"xgpu::dot", "3", "0"});
      CHECK(!static_cast<bool>(xgpu::inclusive_scan(queue, empty, other)));  // nothing enqueued
      CHECK(!static_cast<bool>(xgpu::exclusive_scan(queue, empty, empty, 5.0f)));
      check_error(capture_error([&] { xgpu::inclusive_scan(queue, three, four); }),
                  xgpu::Errc::invalid_argument, {"xgpu::inclusive_scan", "out", "4", "3"});
      check_error(capture_error([&] { xgpu::exclusive_scan(queue, four, three); }),
                  xgpu::Errc::invalid_argument, {"xgpu::exclusive_scan", "out", "3", "4"});
      check_error(capture_error([&] { xgpu::inclusive_scan(queue, empty, three); }),
                  xgpu::Errc::invalid_argument, {"xgpu::inclusive_scan"});
      // An empty queue.
      xgpu::Queue none;
      check_error(capture_error([&] { xgpu::sum(none, three); }), xgpu::Errc::invalid_handle);
      check_error(capture_error([&] { xgpu::inclusive_scan(none, three, three); }),
                  xgpu::Errc::invalid_handle);
      // The buffers are untouched by the refused calls.
      CHECK(queue.read(three) == std::vector<float>(3, 1.0f));
    }
  }
}

TEST_CASE("reductions follow earlier commands in the queue", "[reduce]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context context(device);
      xgpu::Queue queue = context.queue();
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
    }
  }
}
