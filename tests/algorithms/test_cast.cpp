// xgpu::cast on every device, in both work layouts, bit for bit against the integer reference
// of float_formats.hpp: every half and bfloat16 value (finite, infinite, NaN) widened and
// narrowed; floats and doubles on each side of every rounding boundary of half and bfloat16
// (the midpoints, a tie, and one ulp either side: a double one ulp above a midpoint is where
// rounding through float's nearest value would round twice), doubles around sampled float
// midpoints, random doubles of every exponent; then sizes, the same type, and the errors.
//
// Oclgrind interprets every work-item, so there the sweeps take a stride through the values
// (every 23rd half and bfloat16, every 23rd boundary) with the special values always in; PoCL
// takes all of them.
#include <cmath>
#include <limits>
#include <string>
#include <vector>
#include <xgpu/algorithms.hpp>

#include "float_formats.hpp"
#include "test_support.hpp"

using xgpu::bfloat16;
using xgpu::half;
using xgpu_test::capture_error;
using xgpu_test::check_error;
using xgpu_test::is_oclgrind;
namespace fmt = xgpu_test::formats;

namespace {

template <class T>
const char* name_of() {
  return fmt::format_of<T>().name;
}

/// One device, one layout: where the casts run.
struct Place {
  xgpu::Context context;
  xgpu::Queue queue;
  std::size_t stride;  // of the sweeps: 1, or more on Oclgrind
};

/// Casts `inputs` on the device and compares every result with the reference: NaN for a NaN,
/// otherwise the same bits (so -0 stays -0).
template <class From, class To>
void check_cast(Place& place, const std::vector<From>& inputs, const char* what) {
  INFO(what << ": " << name_of<From>() << " -> " << name_of<To>() << ", " << inputs.size()
            << " values");
  xgpu::Buffer<From> src = xgpu_test::upload(place.context, place.queue, inputs);
  xgpu::Buffer<To> dst = place.context.alloc<To>(inputs.size());
  xgpu::cast(place.queue, src, dst);
  const std::vector<To> got = place.queue.read(dst);
  const fmt::Format& to = fmt::format_of<To>();
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const std::uint64_t expected = fmt::reference_cast<To>(inputs[i]), bits = fmt::bits_of(got[i]);
    const bool good = fmt::is_nan(expected, to) ? fmt::is_nan(bits, to) : bits == expected;
    if (!good && wrong++ < 5)
      FAIL_CHECK("element " << i << ": input bits 0x" << std::hex << fmt::bits_of(inputs[i])
                            << " gave 0x" << bits << ", expected 0x" << expected);
  }
  CHECK(wrong == 0);
}

/// Every `stride`-th bit pattern of a 16-bit format, and its special values whatever the
/// stride: zeros, infinities, NaNs (quiet, signalling, negative), the largest finite values,
/// the smallest subnormal and normal.
template <class T>
std::vector<T> all_values(std::size_t stride) {
  std::vector<T> values;
  for (std::uint32_t bits = 0; bits <= 0xffff; bits += static_cast<std::uint32_t>(stride))
    values.push_back(fmt::from_bits<T>(bits));
  const fmt::Format& f = fmt::format_of<T>();
  const std::uint64_t inf = f.infinity(), sign = f.sign_bit();
  for (std::uint64_t bits :
       {std::uint64_t{0}, sign, inf, sign | inf, inf | 1, inf | (inf >> 1), sign | inf | 3, inf - 1,
        sign | (inf - 1), std::uint64_t{1}, sign | 1, std::uint64_t{1} << f.fraction_bits()})
    values.push_back(fmt::from_bits<T>(bits));
  return values;
}

/// For each pair of neighbouring non-negative values of the 16-bit format Narrow (the largest
/// finite one paired with the value past it, which rounds to infinity): both, their midpoint
/// and the nearest Wide values either side of it, each with both signs. Every `stride`-th pair.
/// Wide is float or double; every such point is exact in it.
template <class Wide, class Narrow>
std::vector<Wide> boundaries(std::size_t stride) {
  const fmt::Format& narrow = fmt::format_of<Narrow>();
  const std::uint64_t inf = narrow.infinity();
  // The values as doubles, exactly (every half, bfloat16 and float is a double).
  const auto value = [&](std::uint64_t bits) {
    return fmt::from_bits<double>(fmt::round_to(fmt::decode(bits, narrow), fmt::kDouble));
  };
  std::vector<Wide> points;
  for (std::uint64_t bits = 0; bits < inf; bits += stride) {
    const double low = value(bits);
    // Past the largest finite value, the next value of the same spacing stands in for
    // infinity: the overflow threshold is halfway to it.
    const double high = bits + 1 < inf ? value(bits + 1) : 2 * low - value(bits - 1);
    const auto middle = static_cast<Wide>((low + high) / 2);
    for (Wide v : {static_cast<Wide>(low), middle, std::nextafter(middle, static_cast<Wide>(0)),
                   std::nextafter(middle, std::numeric_limits<Wide>::infinity())}) {
      points.push_back(v);
      points.push_back(-v);
    }
  }
  return points;
}

/// Doubles around float's rounding boundaries: every `stride`-th float from 0 up to the
/// largest (subnormals included), the midpoint with the next float and one double ulp either
/// side; float's overflow threshold, infinities and NaNs.
std::vector<double> float_boundaries(std::size_t stride) {
  std::vector<double> points;
  for (std::uint64_t bits = 0; bits < 0x7f800000u; bits += stride) {
    const double low = fmt::from_bits<float>(bits);
    const double high = bits + 1 < 0x7f800000u
                            ? static_cast<double>(fmt::from_bits<float>(bits + 1))
                            : 2 * low - static_cast<double>(fmt::from_bits<float>(bits - 1));
    const double middle = (low + high) / 2;
    for (double v : {low, middle, std::nextafter(middle, 0.0), std::nextafter(middle, 1e300)}) {
      points.push_back(v);
      points.push_back(-v);
    }
  }
  // Float's overflow threshold: its largest value plus half its last unit (2^104).
  const double threshold = static_cast<double>(std::numeric_limits<float>::max()) + 0x1p103;
  for (double v :
       {threshold, std::nextafter(threshold, 0.0), std::nextafter(threshold, 1e300),
        std::numeric_limits<double>::infinity(), std::numeric_limits<double>::max(),
        std::numeric_limits<double>::quiet_NaN(), -std::numeric_limits<double>::signaling_NaN(),
        std::numeric_limits<double>::denorm_min(), 0.0, -0.0}) {
    points.push_back(v);
    points.push_back(-v);
  }
  return points;
}

/// Doubles with random bits, every exponent alike (most far outside the narrow formats).
std::vector<double> random_doubles(std::size_t n, unsigned seed) {
  std::uint64_t state = 0x9E3779B97F4A7C15ull * (seed + 1);
  std::vector<double> values(n);
  for (std::size_t i = 0; i < n; ++i) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    // Every other one with an exponent near float's range, where the narrowing is subtle.
    std::uint64_t bits = state;
    if (i % 2) bits = (bits & 0x800fffffffffffffull) | ((std::uint64_t{870} + state % 290) << 52);
    values[i] = fmt::from_bits<double>(bits);
  }
  return values;
}

/// Runs `body(place)` on every device, in this process's layout (XGPU_ELEMENTWISE_SHAPE is
/// read once per process: the [shaped] cases run in each layout through the CTest entries).
template <class Body>
void on_every_device(Body&& body) {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()
                    << ", " << xgpu_test::setting_note("XGPU_ELEMENTWISE_SHAPE")) {
      xgpu::Context context(device);
      Place place{context, context.queue(), is_oclgrind(device) ? std::size_t{23} : 1};
      body(place, device);
    }
  }
}

}  // namespace

TEST_CASE("cast: every half and bfloat16 value, to every floating type", "[cast][shaped]") {
  on_every_device([](Place& place, const xgpu::Device& device) {
    const auto halves = all_values<half>(place.stride);
    const auto bfloats = all_values<bfloat16>(place.stride);
    check_cast<half, float>(place, halves, "every half");
    check_cast<half, bfloat16>(place, halves, "every half");
    check_cast<bfloat16, float>(place, bfloats, "every bfloat16");
    check_cast<bfloat16, half>(place, bfloats, "every bfloat16");
    if (device.info().fp64) {
      check_cast<half, double>(place, halves, "every half");
      check_cast<bfloat16, double>(place, bfloats, "every bfloat16");
    }
  });
}

TEST_CASE("cast: floats and doubles on every rounding boundary", "[cast][shaped]") {
  on_every_device([](Place& place, const xgpu::Device& device) {
    check_cast<float, half>(place, boundaries<float, half>(place.stride), "half boundaries");
    check_cast<float, bfloat16>(place, boundaries<float, bfloat16>(place.stride),
                                "bfloat16 boundaries");
    if (!device.info().fp64) return;
    check_cast<double, half>(place, boundaries<double, half>(place.stride), "half boundaries");
    check_cast<double, bfloat16>(place, boundaries<double, bfloat16>(place.stride),
                                 "bfloat16 boundaries");
    const std::size_t float_stride = 65537 * place.stride;
    const std::vector<double> near_floats = float_boundaries(float_stride);
    check_cast<double, float>(place, near_floats, "float boundaries");
    check_cast<double, half>(place, near_floats, "float boundaries");
    check_cast<double, bfloat16>(place, near_floats, "float boundaries");
    const std::vector<double> random = random_doubles(place.stride == 1 ? 100003 : 3001, 7);
    check_cast<double, float>(place, random, "random doubles");
    check_cast<double, half>(place, random, "random doubles");
    check_cast<double, bfloat16>(place, random, "random doubles");
    // Widening is exact: every float of the sample, subnormals included.
    std::vector<float> floats;
    for (std::uint64_t bits = 0; bits < 0x7f800000u; bits += float_stride) {
      floats.push_back(fmt::from_bits<float>(bits));
      floats.push_back(-fmt::from_bits<float>(bits));
    }
    check_cast<float, double>(place, floats, "sampled floats");
  });
}

TEST_CASE("cast at sizes around the vector width and its errors", "[cast]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context context(device);
      xgpu::Queue queue = context.queue();
      // Whole vectors, a tail of 1 to 3 elements, and fewer elements than one vector.
      for (std::size_t n : {1, 2, 3, 5, 15, 16, 17, 31, 33, 1000, 1003}) {
        INFO("n = " << n);
        std::vector<float> values(n);
        for (std::size_t i = 0; i < n; ++i) values[i] = 0.1f * static_cast<float>(i) - 7.3f;
        Place place{context, queue, 1};
        check_cast<float, half>(place, values, "a size");
        check_cast<float, bfloat16>(place, values, "a size");
      }
      const auto floats = xgpu_test::upload(context, queue, std::vector<float>{1.5f, -2.25f, 3});
      SECTION("zero elements enqueue nothing") {
        CHECK_FALSE(
            static_cast<bool>(xgpu::cast(queue, context.alloc<float>(0), context.alloc<half>(0))));
      }
      SECTION("the same type is a copy") {
        auto other = context.alloc<float>(3);
        xgpu::cast(queue, floats, other);
        CHECK(queue.read(other) == std::vector<float>{1.5f, -2.25f, 3});
        CHECK_FALSE(static_cast<bool>(xgpu::cast(queue, floats, floats)));  // nothing to do
      }
      SECTION("sizes must match") {
        check_error(capture_error([&] { xgpu::cast(queue, floats, context.alloc<half>(4)); }),
                    xgpu::Errc::invalid_argument, {"xgpu::cast", "dst", "4", "3"});
      }
      SECTION("views at an odd offset are cast as buffers") {
        // One element in: not on the base-address alignment, so no kernel takes them directly.
        auto source = xgpu_test::upload(context, queue, std::vector<float>{0, 1, 2, 3, 4, 5, 6});
        auto halves = xgpu_test::upload(context, queue, std::vector<half>(7, xgpu::to_half(-1)));
        xgpu::cast(queue, source.view(1, 5), halves.view(1, 5));
        std::vector<float> got;
        for (half h : queue.read(halves)) got.push_back(xgpu::to_float(h));
        CHECK(got == std::vector<float>{-1, 1, 2, 3, 4, 5, -1});
      }
      SECTION("a cast in place between different types is refused") {
        auto halves = context.alloc<half>(4);
        const auto as_bfloat16 = xgpu::ext::reinterpret<bfloat16>(halves);
        check_error(capture_error([&] { xgpu::cast(queue, halves, as_bfloat16); }),
                    xgpu::Errc::invalid_argument, {"xgpu::cast", "in place"});
      }
    }
  }
}
