// The element-wise operations of the algorithms library (fill, copy, axpy, scale, the
// arithmetic, abs, relu and the math functions) on every device, against host references:
// every element type, the sizes around the work-group size, 2^20 + 3 and (PoCL only) one near
// max_allocation / 8 bytes, in-place use, the errors, and the special values (division by
// zero, infinities, NaN). The size sweeps run in both layouts (XGPU_ELEMENTWISE_SHAPE: one
// element per item, or blocks of 16 per item) on every device. Transpose and softmax have
// files of their own.
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <xgpu/algorithms.hpp>
#include <xgpu/kernels.hpp>

#include "test_support.hpp"

using xgpu::half;
using namespace xgpu_test;

namespace {

// ---- Element types on the host ----------------------------------------------------------

/// Distance in representable values (ulps) between two floats, doubles, halves or bfloat16s: their
/// bit patterns mapped onto one increasing integer line (-0 and +0 are 0 apart).
template <class T>
std::int64_t ordered(T value) {
  if constexpr (xgpu_test::is_16bit<T>) {
    const std::int64_t magnitude = value.bits & 0x7fff;
    return (value.bits & 0x8000) ? -magnitude : magnitude;
  } else if constexpr (std::is_same_v<T, float>) {
    std::uint32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    const std::int64_t magnitude = bits & 0x7fffffffu;
    return (bits >> 31) ? -magnitude : magnitude;
  } else {
    std::uint64_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    const auto magnitude = static_cast<std::int64_t>(bits & 0x7fffffffffffffffull);
    return (bits >> 63) ? -magnitude : magnitude;
  }
}
template <class T>
std::int64_t ulps_between(T a, T b) {
  const std::int64_t d = ordered(a) - ordered(b);
  return d < 0 ? -d : d;
}

/// Whether a result is right: floats within `tolerance` ulps of the reference, integers equal.
template <class T>
bool within(T got, T expected, std::int64_t tolerance) {
  if constexpr (is_floating<T>)
    return ulps_between(got, expected) <= tolerance;
  else
    return got == expected;
}
template <class T>
bool is_nan(T value) {
  return std::isnan(static_cast<double>(value_of(value)));
}

/// The exact value `reference` rounded as the device stores it: to T, for half and bfloat16
/// through float (the kernels compute in float, then round once more).
template <class T>
T rounded(long double reference) {
  if constexpr (xgpu_test::is_16bit<T>)
    return element_of<T>(static_cast<float>(reference));
  else
    return static_cast<T>(reference);
}

/// Random inputs: floats in [low, high); integers over their whole range (to wrap).
template <class T>
std::vector<T> inputs(std::size_t n, unsigned seed, double low = -100, double high = 100) {
  if constexpr (is_floating<T>)
    return random_values<T>(n, seed, low, high);
  else
    return random_values<T>(n, seed);
}

/// Integer arithmetic wraps modulo 2^32, computed in uint32 to stay defined on the host too.
template <class T>
T wrap(std::uint32_t value) {
  return static_cast<T>(value);
}

// ---- Devices, buffers, sizes --------------------------------------------------------------

/// The work-group size the element-wise kernels run with, found as the library finds it
/// (work_group_size(kernel, 256): the kernel's limit rounded down to its preferred multiple).
std::size_t elementwise_group(xgpu::Context& context) {
  const xgpu::Kernel kernel =
      context.build(xgpu::kernels::source("elementwise.cl"), "-DXGPU_T=float -DXGPU_T_FLOAT")
          .kernel("xgpu_ew_add");
  const xgpu::KernelLimits& limits = kernel.limits();
  const std::size_t allowed =
      std::max<std::size_t>(std::min<std::size_t>(256, limits.max_work_group_size), 1);
  const std::size_t multiple = std::max<std::size_t>(limits.preferred_multiple, 1);
  return allowed < multiple ? allowed : allowed / multiple * multiple;
}

/// The sizes every operation is run at: 0, 1, 2, around the CPU layout's block of 16
/// elements, a prime, the work-group size - 1 and + 1, and 2^20 + 3 (not on Oclgrind, which
/// interprets every work-item): whole and partial blocks, partial work-groups, many groups.
std::vector<std::size_t> sizes_for(const xgpu::Device& device, std::size_t group) {
  std::vector<std::size_t> sizes{0, 1, 2, 15, 17, 1031, group - 1, group + 1};
  if (!is_oclgrind(device)) sizes.push_back((std::size_t{1} << 20) + 3);
  return sizes;
}

/// Runs `run` in the layout of the element-wise kernels the CTest entry chose: the [shaped]
/// cases run in each layout on each device through the entries of tests/CMakeLists.txt
/// (XGPU_ELEMENTWISE_SHAPE, read once per process).
template <class Run>
void in_the_entry_layout(Run&& run) {
  INFO(xgpu_test::setting_note("XGPU_ELEMENTWISE_SHAPE"));
  run();
}

/// Runs check(context, queue, n) at every size of sizes_for() on a new context of `device`,
/// in the entry's layout; nothing where the device does not take T.
template <class T, class Check>
void at_every_size(const xgpu::Device& device, Check&& check) {
  if (!supported<T>(device)) return;
  xgpu::Context context(device);
  xgpu::Queue queue = context.queue();
  in_the_entry_layout([&] {
    for (std::size_t n : sizes_for(device, elementwise_group(context))) check(context, queue, n);
  });
}

// ---- fill, copy, axpy, scale ----------------------------------------------------------------

template <class T>
void check_fill_copy_axpy_scale(xgpu::Context& context, xgpu::Queue& queue, std::size_t n) {
  INFO(type_name<T>() << ", " << n << " elements");
  const std::vector<T> x = inputs<T>(n, 1), y = inputs<T>(n, 2);
  xgpu::Buffer<T> dx = upload(context, queue, x), dy = upload(context, queue, y);
  xgpu::Buffer<T> filled = context.alloc<T>(n), copied = context.alloc<T>(n);

  const xgpu::scalar_t<T> value = static_cast<xgpu::scalar_t<T>>(is_floating<T> ? -2.75 : 7);
  xgpu::Event event = xgpu::fill(queue, filled, value);
  CHECK(static_cast<bool>(event) == (n != 0));  // size 0 enqueues nothing
  CHECK(queue.read(filled) == std::vector<T>(n, element_of<T>(value)));

  xgpu::copy(queue, dx, copied);
  CHECK(queue.read(copied) == x);

  // y = a x + y: fused for floats, so the host's fma (correctly rounded) is exact; half and
  // bfloat16 compute the fused result in float and round it once, as to_half does. Native
  // half fuses in half: 1 ulp from that where the float result rounds on a tie.
  const std::int64_t axpy_ulps =
      std::is_same_v<T, half> && xgpu::native_half_arithmetic(queue) ? 1 : 0;
  xgpu::scalar_t<T> a;
  if constexpr (is_floating<T>)
    a = 1.75f;
  else
    a = std::is_signed_v<T> ? T(-3) : T(3);
  xgpu::axpy(queue, a, dx, dy);
  std::vector<T> got = queue.read(dy);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i) {
    T expected;
    if constexpr (is_floating<T>)
      expected = element_of<T>(std::fma(a, value_of(x[i]), value_of(y[i])));
    else
      expected = wrap<T>(std::uint32_t(a) * std::uint32_t(x[i]) + std::uint32_t(y[i]));
    if (!within(got[i], expected, axpy_ulps) && wrong++ < 5) FAIL_CHECK("axpy [" << i << "]");
  }
  CHECK(wrong == 0);

  xgpu::scale(queue, a, dx);  // x = a x, one rounding for floats
  got = queue.read(dx);
  wrong = 0;
  for (std::size_t i = 0; i < n; ++i) {
    T expected;
    if constexpr (is_floating<T>)
      expected = element_of<T>(a * value_of(x[i]));
    else
      expected = wrap<T>(std::uint32_t(a) * std::uint32_t(x[i]));
    if (!(got[i] == expected) && wrong++ < 5) FAIL_CHECK("scale [" << i << "]");
  }
  CHECK(wrong == 0);
}

template <class T>
void for_basic_sizes(const xgpu::Device& device) {
  at_every_size<T>(device, [](xgpu::Context& context, xgpu::Queue& queue, std::size_t n) {
    check_fill_copy_axpy_scale<T>(context, queue, n);
  });
}

// ---- add, sub, mul, div ---------------------------------------------------------------------

enum class Binary { add, sub, mul, div };

template <class T>
xgpu::Event run_binary(xgpu::Queue& queue, Binary op, const xgpu::Buffer<T>& a,
                       const xgpu::Buffer<T>& b, const xgpu::Buffer<T>& out) {
  switch (op) {
    case Binary::add:
      return xgpu::add(queue, a, b, out);
    case Binary::sub:
      return xgpu::sub(queue, a, b, out);
    case Binary::mul:
      return xgpu::mul(queue, a, b, out);
    case Binary::div:
      return xgpu::div(queue, a, b, out);
  }
  return {};
}

/// The host's result; for integers wrapping, x / 0 = 0 and INT32_MIN / -1 = INT32_MIN.
template <class T>
T binary_reference(Binary op, T a, T b) {
  if constexpr (is_floating<T>) {
    const auto x = value_of(a), y = value_of(b);
    switch (op) {
      case Binary::add:
        return element_of<T>(x + y);
      case Binary::sub:
        return element_of<T>(x - y);
      case Binary::mul:
        return element_of<T>(x * y);
      case Binary::div:
        return element_of<T>(x / y);
    }
  } else {
    const auto x = std::uint32_t(a), y = std::uint32_t(b);
    switch (op) {
      case Binary::add:
        return wrap<T>(x + y);
      case Binary::sub:
        return wrap<T>(x - y);
      case Binary::mul:
        return wrap<T>(x * y);
      case Binary::div:
        if (b == 0) return 0;
        if constexpr (std::is_signed_v<T>)
          if (b == -1) return wrap<T>(0u - x);
        return static_cast<T>(a / b);
    }
  }
  return T{};
}

template <class T>
void check_binary(xgpu::Context& context, xgpu::Queue& queue, Binary op, std::size_t n) {
  INFO(type_name<T>() << " operation " << int(op) << " (add, sub, mul, div), " << n << " elements");
  std::vector<T> a = inputs<T>(n, 3), b = inputs<T>(n, 4);
  if constexpr (!is_floating<T>) {
    // Small divisors too, or integer quotients would nearly all be 0 or +-1, and the
    // defined corner cases.
    for (std::size_t i = 0; i < n; i += 3) b[i] = static_cast<T>(b[i] % 17);
    if (n > 2) {
      b[0] = 0;
      a[1] = std::numeric_limits<T>::min();
      b[1] = static_cast<T>(-1);
    }
  }
  xgpu::Buffer<T> da = upload(context, queue, a), db = upload(context, queue, b);
  xgpu::Buffer<T> out = context.alloc<T>(n);
  xgpu::Event event = run_binary(queue, op, da, db, out);
  CHECK(static_cast<bool>(event) == (n != 0));
  const std::vector<T> got = queue.read(out);
  // Exact except float division, which OpenCL allows 2.5 ulp (3 as integers); a half
  // quotient may then round to the neighbouring half (1).
  std::int64_t tolerance = 0;
  if (op == Binary::div && std::is_same_v<T, float>) tolerance = 3;
  if (op == Binary::div && xgpu_test::is_16bit<T>) tolerance = 1;
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const T expected = binary_reference(op, a[i], b[i]);
    if (!within(got[i], expected, tolerance) && wrong++ < 5)
      FAIL_CHECK("[" << i << "] " << +value_of(a[i]) << " op " << +value_of(b[i]) << ": expected "
                     << +value_of(expected) << ", got " << +value_of(got[i]));
  }
  CHECK(wrong == 0);
}

template <class T>
void for_binary_sizes(const xgpu::Device& device) {
  at_every_size<T>(device, [](xgpu::Context& context, xgpu::Queue& queue, std::size_t n) {
    for (Binary op : {Binary::add, Binary::sub, Binary::mul, Binary::div})
      check_binary<T>(context, queue, op, n);
  });
}

// ---- unary operations -----------------------------------------------------------------------

enum class Unary { abs, relu, exp, log, sqrt, sigmoid, tanh };

const char* unary_name(Unary op) {
  static const char* const names[] = {"abs", "relu", "exp", "log", "sqrt", "sigmoid", "tanh"};
  return names[int(op)];
}

template <class T>
xgpu::Event run_unary(xgpu::Queue& queue, Unary op, const xgpu::Buffer<T>& in,
                      const xgpu::Buffer<T>& out) {
  if constexpr (is_floating<T>) {
    switch (op) {
      case Unary::exp:
        return xgpu::exp(queue, in, out);
      case Unary::log:
        return xgpu::log(queue, in, out);
      case Unary::sqrt:
        return xgpu::sqrt(queue, in, out);
      case Unary::sigmoid:
        return xgpu::sigmoid(queue, in, out);
      case Unary::tanh:
        return xgpu::tanh(queue, in, out);
      default:
        break;
    }
  }
  if (op == Unary::abs) return xgpu::abs(queue, in, out);
  return xgpu::relu(queue, in, out);
}

/// Where a function's inputs are drawn from: uniformly in [low, high), or exponent-uniform
/// with magnitudes in [low, high] (and either sign where `both_signs`).
struct Domain {
  double low, high;
  bool exponent_uniform = false;
  bool both_signs = false;
};

/// Inputs where the function is well inside the type's range. exp, log and sqrt get
/// exponent-uniform inputs: drawn uniformly from [1e-30, 1e30], 99.9 % of them would lie
/// above 1e27, and the small magnitudes, where log and sqrt take other paths, would never be
/// tried. log and sqrt span every normal value of the type; exp every magnitude whose result
/// stays normal (exp(-87) > FLT_MIN, exp(-700) > DBL_MIN, exp(-9) above half's 2^-14).
template <class T>
Domain unary_domain(Unary op) {
  const bool is_half = std::is_same_v<T, half>;
  const double smallest = is_half ? 0x1p-14 : std::numeric_limits<xgpu::scalar_t<T>>::min();
  // bfloat16's largest finite value (0x7f7f) is below float's, which would round to infinity.
  const double largest = is_half ? 65504.0
                         : std::is_same_v<T, xgpu::bfloat16>
                             ? 0x1.fep127
                             : std::numeric_limits<xgpu::scalar_t<T>>::max();
  switch (op) {
    case Unary::exp: {
      const double limit = is_half ? 9.0 : std::is_same_v<T, double> ? 700.0 : 87.0;
      // Down to magnitudes whose exp rounds to 1.
      const double tiny =
          is_half ? 0x1p-14
                  : std::ldexp(1.0, -(std::numeric_limits<xgpu::scalar_t<T>>::digits + 6));
      return {tiny, limit, true, true};
    }
    case Unary::log:
    case Unary::sqrt:
      return {smallest, largest, true};
    case Unary::sigmoid:
      return {-30.0, 30.0};
    case Unary::tanh:
      return {-10.0, 10.0};
    default:
      return {-100.0, 100.0};
  }
}

/// Exponent-uniform values: magnitudes m 2^e, the binary exponent e uniform over those of
/// [low, high] and m uniform in [1, 2), redrawn when outside [low, high] (0 < low <= high);
/// negative half of the time when `both_signs`. Each binade gets the same share.
template <class T>
std::vector<T> exponent_uniform_values(std::size_t n, unsigned seed, double low, double high,
                                       bool both_signs) {
  std::uint64_t state = 0x9E3779B97F4A7C15ull * (seed + 1);
  const auto next = [&state] {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  const int first = std::ilogb(low), last = std::ilogb(high);
  std::vector<T> values(n);
  for (T& v : values) {
    double magnitude;
    do {
      const int exponent = first + static_cast<int>(next() % std::uint64_t(last - first + 1));
      const double mantissa = 1.0 + static_cast<double>(next() >> 11) * 0x1.0p-53;
      magnitude = std::ldexp(mantissa, exponent);
    } while (magnitude < low || magnitude > high);
    const bool negative = both_signs && (next() >> 63) != 0;
    v = element_of<T>(negative ? -magnitude : magnitude);
  }
  return values;
}

template <class T>
long double unary_reference(Unary op, long double x) {
  switch (op) {
    case Unary::abs:
      return std::fabs(x);
    case Unary::relu:
      return x < 0 ? 0.0L : x;
    case Unary::exp:
      return std::exp(x);
    case Unary::log:
      return std::log(x);
    case Unary::sqrt:
      return std::sqrt(x);
    case Unary::sigmoid:
      return 1.0L / (1.0L + std::exp(-x));
    case Unary::tanh:
      return std::tanh(x);
  }
  return 0;
}

/// ulps allowed against the correctly rounded result: OpenCL's bounds for float (exp, log and
/// sqrt 3, tanh 5) and double (exp and log 3, sqrt correctly rounded, tanh 5); sigmoid adds
/// an addition and a division to exp's error (3 + 1 + 2.5, so 7). Half and bfloat16: the
/// float result rounded once more can land on the neighbouring value, so 1. abs and relu are
/// exact.
template <class T>
std::int64_t unary_tolerance(Unary op) {
  if (op == Unary::abs || op == Unary::relu) return 0;
  if constexpr (xgpu_test::is_16bit<T>) return 1;
  switch (op) {
    case Unary::exp:
    case Unary::log:
      return 3;
    // Double sqrt is correctly rounded, but the long double reference rounded to double
    // can be off by one (64 bits are too few to make double rounding harmless).
    case Unary::sqrt:
      return std::is_same_v<T, float> ? 3 : 1;
    case Unary::sigmoid:
      return 7;
    default:
      return 5;
  }
}

template <class T>
void check_unary(xgpu::Context& context, xgpu::Queue& queue, Unary op, std::size_t n,
                 bool in_place) {
  INFO(type_name<T>() << " " << unary_name(op) << ", " << n << " elements"
                      << (in_place ? ", in place" : ""));
  std::vector<T> x;
  if constexpr (is_floating<T>) {
    const Domain domain = unary_domain<T>(op);
    x = domain.exponent_uniform
            ? exponent_uniform_values<T>(n, 5, domain.low, domain.high, domain.both_signs)
            : inputs<T>(n, 5, domain.low, domain.high);
  } else {
    x = inputs<T>(n, 5, -100, 100);
  }
  xgpu::Buffer<T> in = upload(context, queue, x);
  xgpu::Buffer<T> out = in_place ? in : context.alloc<T>(n);
  xgpu::Event event = run_unary(queue, op, in, out);
  CHECK(static_cast<bool>(event) == (n != 0));
  const std::vector<T> got = queue.read(out);
  const std::int64_t tolerance = unary_tolerance<T>(op);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i) {
    T expected;
    if constexpr (is_floating<T>) {
      expected = rounded<T>(unary_reference<T>(op, value_of(x[i])));
    } else if constexpr (std::is_signed_v<T>) {
      // |INT32_MIN| wraps to INT32_MIN, like the device's.
      const std::uint32_t bits = std::uint32_t(x[i]);
      expected = op == Unary::abs ? wrap<T>(x[i] < 0 ? 0u - bits : bits) : (x[i] < 0 ? 0 : x[i]);
    } else {
      expected = x[i];  // uint32: abs and relu are the identity
    }
    if (!within(got[i], expected, tolerance) && wrong++ < 5)
      FAIL_CHECK("[" << i << "] of " << +value_of(x[i]) << ": expected " << +value_of(expected)
                     << ", got " << +value_of(got[i]));
  }
  CHECK(wrong == 0);
}

template <class T>
void for_unary_sizes(const xgpu::Device& device) {
  if (!supported<T>(device)) return;
  xgpu::Context context(device);
  xgpu::Queue queue = context.queue();
  std::vector<Unary> ops{Unary::abs, Unary::relu};
  if constexpr (is_floating<T>)
    ops.insert(ops.end(), {Unary::exp, Unary::log, Unary::sqrt, Unary::sigmoid, Unary::tanh});
  const std::vector<std::size_t> sizes = sizes_for(device, elementwise_group(context));
  in_the_entry_layout([&] {
    for (Unary op : ops) {
      for (std::size_t n : sizes) check_unary<T>(context, queue, op, n, false);
      check_unary<T>(context, queue, op, 1031, true);
    }
  });
}

}  // namespace

TEST_CASE("fill, copy, axpy and scale for every type and size", "[elementwise][shaped]") {
  for_each_device_and_element_type(
      [](const xgpu::Device& device, auto tag) { for_basic_sizes<decltype(tag)>(device); });
}

TEST_CASE("add, sub, mul and div for every type and size", "[elementwise][shaped]") {
  for_each_device_and_element_type(
      [](const xgpu::Device& device, auto tag) { for_binary_sizes<decltype(tag)>(device); });
}

TEST_CASE("exponent-uniform inputs give every binade its share", "[elementwise]") {
  // Over [1e-30, 1e30] (binades 2^-100 to 2^99): half the values below 1, a sixth below
  // 1e-20; a uniform draw would put none of them there.
  const std::vector<float> x = exponent_uniform_values<float>(1 << 16, 5, 1e-30, 1e30, false);
  std::size_t below_one = 0, below_1e20 = 0, outside = 0;
  for (float v : x) {
    below_one += v < 1.0f;
    below_1e20 += v < 1e-20f;
    outside += !(v >= 1e-30f && v <= 1e30f);
  }
  CHECK(outside == 0);
  CHECK(below_one > x.size() * 45 / 100);
  CHECK(below_one < x.size() * 55 / 100);
  CHECK(below_1e20 > x.size() / 10);
  // Both signs: about half negative; magnitudes kept in range.
  const std::vector<double> y = exponent_uniform_values<double>(1 << 16, 6, 0x1p-60, 700, true);
  std::size_t negative = 0;
  for (double v : y) {
    negative += v < 0;
    outside += !(std::fabs(v) >= 0x1p-60 && std::fabs(v) <= 700);
  }
  CHECK(outside == 0);
  CHECK(negative > y.size() * 45 / 100);
  CHECK(negative < y.size() * 55 / 100);
}

TEST_CASE("abs, relu and the math functions for every type and size", "[elementwise][shaped]") {
  for_each_device_and_element_type(
      [](const xgpu::Device& device, auto tag) { for_unary_sizes<decltype(tag)>(device); });
}

TEST_CASE("bfloat16: every element-wise operation at every size", "[elementwise]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      for_basic_sizes<xgpu::bfloat16>(device);
      for_binary_sizes<xgpu::bfloat16>(device);
      for_unary_sizes<xgpu::bfloat16>(device);
    }
  }
}

// Half computes natively where the device has cl_khr_fp16 (elementwise.cl): the results of
// the native and the float paths agree bit for bit (add, sub, mul, scale by a half value,
// fill, abs, relu) or within 1 ulp (div, axpy), as elementwise.hpp states. Here every device
// lacks cl_khr_fp16, so this checks the float path and the host's choice; a device with the
// extension (or `xgpu conform`, `ctest` on one) checks the native path with the same case.
TEST_CASE("half arithmetic natively or through float gives the stated results", "[elementwise]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context context(device);
      xgpu::Queue queue = context.queue();
      const bool native = xgpu::native_half_arithmetic(queue);
      CHECK(native == device.info().fp16);
      INFO((native ? "native half" : "half through float"));
      const std::size_t n = 1031;
      const std::vector<half> a = inputs<half>(n, 21), b = inputs<half>(n, 22);
      xgpu::Buffer<half> da = upload(context, queue, a), db = upload(context, queue, b);
      xgpu::Buffer<half> out = context.alloc<half>(n);
      const auto expect = [&](const char* what, std::int64_t ulps, auto reference) {
        INFO(what);
        const std::vector<half> got = queue.read(out);
        std::size_t wrong = 0;
        for (std::size_t i = 0; i < n; ++i) {
          const half expected = xgpu::to_half(reference(value_of(a[i]), value_of(b[i])));
          if (ulps_between(got[i], expected) > ulps && wrong++ < 5)
            FAIL_CHECK("[" << i << "] " << value_of(a[i]) << ", " << value_of(b[i]) << ": got "
                           << value_of(got[i]) << ", expected " << value_of(expected));
        }
        CHECK(wrong == 0);
      };
      xgpu::add(queue, da, db, out);
      expect("add", 0, [](float x, float y) { return x + y; });
      xgpu::sub(queue, da, db, out);
      expect("sub", 0, [](float x, float y) { return x - y; });
      xgpu::mul(queue, da, db, out);
      expect("mul", 0, [](float x, float y) { return x * y; });
      xgpu::div(queue, da, db, out);
      expect("div", 1, [](float x, float y) { return x / y; });
      xgpu::abs(queue, da, out);
      expect("abs", 0, [](float x, float) { return std::fabs(x); });
      xgpu::relu(queue, da, out);
      expect("relu", 0, [](float x, float) { return x < 0 ? 0.0f : x; });
      xgpu::copy(queue, db, out);
      xgpu::axpy(queue, 0.5f, da, out);  // 0.5 is a half value: the paths differ only by ties
      expect("axpy", 1, [](float x, float y) { return std::fma(0.5f, x, y); });
      xgpu::copy(queue, da, out);
      xgpu::scale(queue, -0.25f, out);
      expect("scale", 0, [](float x, float) { return -0.25f * x; });
      xgpu::fill(queue, out, 0.1f);  // rounded to the nearest half on both paths
      expect("fill", 0, [](float, float) { return 0.1f; });
    }
  }
}

TEST_CASE("fill and axpy near max_allocation / 8 bytes", "[elementwise]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    if (!is_pocl(device)) continue;  // the others interpret every item, or lack the memory
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context context(device);
      xgpu::Queue queue = context.queue();
      const std::size_t n = xgpu_test::large_bytes(device) / sizeof(float) + 3;
      INFO(n << " floats");
      xgpu::Buffer<float> x = context.alloc<float>(n), y = context.alloc<float>(n);
      xgpu::fill(queue, y, 1.0f);
      {
        xgpu::Mapping<float> mapped = queue.map(x);
        for (std::size_t i = 0; i < n; ++i) mapped[i] = float(i % 1024) * 0.25f;
      }
      {
        xgpu::Mapping<float> mapped = queue.map(y);
        std::size_t wrong = 0;
        for (std::size_t i = 0; i < n; ++i) wrong += mapped[i] != 1.0f;
        CHECK(wrong == 0);
      }
      xgpu::axpy(queue, 2.0f, x, y);
      xgpu::Mapping<float> mapped = queue.map(y);
      std::size_t wrong = 0;
      for (std::size_t i = 0; i < n; ++i) wrong += mapped[i] != float(i % 1024) * 0.5f + 1.0f;
      CHECK(wrong == 0);
    }
  }
}

TEST_CASE("element-wise special values: division by zero, infinities, NaN", "[elementwise]") {
  const float inf = std::numeric_limits<float>::infinity(),
              nan = std::numeric_limits<float>::quiet_NaN();
  for_each_device([&](xgpu::Context& context, xgpu::Queue& queue, const xgpu::Device&) {
    // Integer division by zero is defined as 0, INT32_MIN / -1 wraps, never a trap.
    auto ia = upload(context, queue, std::vector<std::int32_t>{7, -7, 0, INT32_MIN, INT32_MIN, 9});
    auto ib = upload(context, queue, std::vector<std::int32_t>{0, 0, 0, -1, 1, -2});
    auto iout = context.alloc<std::int32_t>(6);
    xgpu::div(queue, ia, ib, iout);
    CHECK(queue.read(iout) == std::vector<std::int32_t>{0, 0, 0, INT32_MIN, INT32_MIN, -4});
    auto ua = upload(context, queue, std::vector<std::uint32_t>{7, 0, 0xffffffffu});
    auto ub = upload(context, queue, std::vector<std::uint32_t>{0, 0, 2});
    auto uout = context.alloc<std::uint32_t>(3);
    xgpu::div(queue, ua, ub, uout);
    CHECK(queue.read(uout) == std::vector<std::uint32_t>{0, 0, 0x7fffffffu});
    xgpu::abs(queue, ia, iout);
    CHECK(queue.read(iout) == std::vector<std::int32_t>{7, 7, 0, INT32_MIN, INT32_MIN, 9});

    // Floats: IEEE 754 division, and the limits of the math functions.
    auto fa = upload(context, queue, std::vector<float>{1, -1, 0, inf, -inf, nan, -0.0f, -2});
    auto fb = upload(context, queue, std::vector<float>{0, 0, 0, 1, 1, 1, 1, 1});
    auto fout = context.alloc<float>(8);
    xgpu::div(queue, fa, fb, fout);
    std::vector<float> got = queue.read(fout);
    CHECK(got[0] == inf);
    CHECK(got[1] == -inf);
    CHECK(std::isnan(got[2]));
    xgpu::sigmoid(queue, fa, fout);
    got = queue.read(fout);
    CHECK(got[3] == 1.0f);
    CHECK(got[4] == 0.0f);
    CHECK(std::isnan(got[5]));
    xgpu::relu(queue, fa, fout);
    got = queue.read(fout);
    CHECK(got[0] == 1.0f);
    CHECK(got[1] == 0.0f);
    CHECK(got[3] == inf);
    CHECK(got[4] == 0.0f);
    CHECK(std::isnan(got[5]));  // relu passes NaN through
    CHECK(got[7] == 0.0f);
    xgpu::log(queue, fa, fout);
    got = queue.read(fout);
    CHECK(got[0] == 0.0f);
    CHECK(std::isnan(got[1]));
    CHECK(got[2] == -inf);
    CHECK(got[3] == inf);
    xgpu::sqrt(queue, fa, fout);
    got = queue.read(fout);
    CHECK(std::isnan(got[1]));
    CHECK(got[3] == inf);
    xgpu::exp(queue, fa, fout);
    got = queue.read(fout);
    CHECK(got[2] == 1.0f);
    CHECK(got[3] == inf);
    CHECK(got[4] == 0.0f);
    xgpu::tanh(queue, fa, fout);
    got = queue.read(fout);
    CHECK(got[3] == 1.0f);
    CHECK(got[4] == -1.0f);  // OpenCL defines tanh(+-inf) = +-1 exactly
    CHECK(std::isnan(got[5]));
    // Where tanh rounds to +-1 the result is exactly +-1 (PoCL's float tanh is an ulp short).
    auto big = upload(context, queue, std::vector<float>{10, 12.5f, -30, 9.5f});
    xgpu::tanh(queue, big, big);
    got = queue.read(big);
    CHECK(got[0] == 1.0f);
    CHECK(got[1] == 1.0f);
    CHECK(got[2] == -1.0f);
    CHECK(got[3] >= 0.9999995f);  // within 5 ulp of tanh(9.5), which rounds to 1

    // Half: results beyond 65504 become infinity.
    auto ha = upload(context, queue, std::vector<half>{xgpu::to_half(12.0f), xgpu::to_half(-inf)});
    auto hout = context.alloc<half>(2);
    xgpu::exp(queue, ha, hout);
    const std::vector<half> hgot = queue.read(hout);
    CHECK(xgpu::to_float(hgot[0]) == inf);
    CHECK(xgpu::to_float(hgot[1]) == 0.0f);
  });
}

TEST_CASE("element-wise operations in place", "[elementwise]") {
  for_each_device([&](xgpu::Context& context, xgpu::Queue& queue, const xgpu::Device&) {
    const std::size_t n = 1031;
    const std::vector<float> x = inputs<float>(n, 8);
    xgpu::Buffer<float> a = upload(context, queue, x);
    xgpu::add(queue, a, a, a);  // a = a + a
    std::vector<float> expected(n);
    for (std::size_t i = 0; i < n; ++i) expected[i] = x[i] + x[i];
    CHECK(queue.read(a) == expected);
    xgpu::axpy(queue, 3.0f, a, a);  // a = 3a + a
    for (float& v : expected) v = std::fma(3.0f, v, v);
    CHECK(queue.read(a) == expected);
    xgpu::Buffer<float> b = upload(context, queue, x);
    xgpu::sub(queue, a, b, b);  // b = a - b
    for (std::size_t i = 0; i < n; ++i) expected[i] = expected[i] - x[i];
    CHECK(queue.read(b) == expected);
    CHECK_FALSE(xgpu::copy(queue, b, b));  // a no-op: nothing enqueued
    CHECK(queue.read(b) == expected);
  });
}

TEST_CASE("element-wise errors: mismatched sizes, double without fp64", "[elementwise]") {
  for_each_device([&](xgpu::Context& context, xgpu::Queue& queue, const xgpu::Device& device) {
    auto a = context.alloc<float>(10), b = context.alloc<float>(11), c = context.alloc<float>(10);
    const xgpu::Errc invalid = xgpu::Errc::invalid_argument;
    check_error(capture_error([&] { xgpu::add(queue, a, b, c); }), invalid,
                {"xgpu::add", "b", "11", "10"});
    check_error(capture_error([&] { xgpu::div(queue, a, c, b); }), invalid, {"xgpu::div", "out"});
    check_error(capture_error([&] { xgpu::axpy(queue, 1.0f, a, b); }), invalid,
                {"xgpu::axpy", "y"});
    check_error(capture_error([&] { xgpu::copy(queue, b, a); }), invalid, {"xgpu::copy", "dst"});
    check_error(capture_error([&] { xgpu::exp(queue, a, b); }), invalid, {"xgpu::exp", "out"});
    check_error(capture_error([&] { xgpu::relu(queue, b, a); }), invalid, {"xgpu::relu"});
    auto empty = context.alloc<float>(0);
    check_error(capture_error([&] { xgpu::sigmoid(queue, empty, a); }), invalid, {"xgpu::sigmoid"});
    // A mismatch is found before anything runs, also with an empty buffer involved; two
    // empty buffers are fine and enqueue nothing.
    CHECK_FALSE(xgpu::tanh(queue, empty, empty));
    CHECK_FALSE(xgpu::scale(queue, 2.0f, empty));
    xgpu::Queue none;
    check_error(capture_error([&] { xgpu::fill(none, a, 1.0f); }), xgpu::Errc::invalid_handle,
                {"xgpu::fill"});
    if (!device.info().fp64) {
      auto d = context.alloc<double>(4);
      check_error(capture_error([&] { xgpu::fill(queue, d, 1.0); }), xgpu::Errc::unsupported,
                  {"xgpu::fill", "double"});
    }
  });
}

// unit.icd.algorithms.bad_settings sets XGPU_ELEMENTWISE_SHAPE=simd (read once per process).
TEST_CASE("element-wise operations refuse an unknown XGPU_ELEMENTWISE_SHAPE", "[.bad_settings]") {
  REQUIRE(xgpu_test::env("XGPU_ELEMENTWISE_SHAPE") == std::string("simd"));
  for_each_device([&](xgpu::Context& context, xgpu::Queue& queue, const xgpu::Device&) {
    auto a = context.alloc<float>(4), c = context.alloc<float>(4);
    check_error(capture_error([&] { xgpu::axpy(queue, 1.0f, a, c); }), xgpu::Errc::invalid_argument,
                {"XGPU_ELEMENTWISE_SHAPE", "simd"});
  });
}
