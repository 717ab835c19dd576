// Scans (inclusive_scan, exclusive_scan) on every device, for every element type, against
// host running sums: the required sizes (0, 1, 2, a prime, the work-group size -/+ 1,
// 2^20 + 3, and one near max_allocation / 8 bytes on PoCL), in place and not, by both of
// scan.cl's methods (three launches; the single pass with its look-back), wrapping of
// integers, the stated accuracy bounds for floats, both layouts (XGPU_SCAN_SHAPE=cpu|gpu) on
// every device, and bad input.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <xgpu/algorithms.hpp>
#include <xgpu/kernels.hpp>

#include "algorithms/sums.hpp"
#include "for_tests.hpp"  // runtime/algorithms/src: what the library exports for tests
#include "test_support.hpp"

using xgpu::half;
using namespace xgpu_test;

namespace {

// The single-pass scan publishes tile totals with OpenCL 1.2 relaxed atomics and fences,
// which order memory between work-groups on CPU devices (and in Oclgrind, which runs groups
// one after another) but not by the specification in general: xgpu uses it only on those
// devices, and the tests force it only there.
bool single_pass_safe(const xgpu::Device& device) {
  return (device.info().type & xgpu::DeviceType::cpu) != 0;
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
  return xgpu::detail::scan_by(queue, in, out, init, inclusive, "test scan", method);
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

void refuse_double(xgpu::Context& context, xgpu::Queue& queue) {
  xgpu::Buffer<double> x = context.alloc<double>(4);
  check_error(capture_error([&] { xgpu::inclusive_scan(queue, x, x); }), xgpu::Errc::unsupported,
              {"fp64"});
}

}  // namespace

TEST_CASE("scans of every type at the required sizes, in place and not", "[scan]") {
  xgpu_test::for_each_device_and_type(
      [](xgpu::Context& context, xgpu::Queue& queue, auto tag) {
        using T = decltype(tag);
        unsigned seed = 100;
        for (std::size_t n : xgpu_test::sum_sizes<T>(queue))
          check_scans(context, queue, random_terms<T>(n, seed++));
      },
      refuse_double);
}

TEST_CASE("scans in both layouts on every device", "[scan][shaped]") {
  // The CPU layout (a chunk per work-item) and the GPU layout (striped tiles of 4 elements per
  // item, a range of tiles per group) on every device, every type: sizes around a tile of 256
  // items and over many groups with a partial last tile, in place and not. The layout is the
  // CTest entry's (XGPU_SCAN_SHAPE, read once per process): the entries of tests/CMakeLists.txt
  // run this case in each layout on each device. Oclgrind checks every access of both at
  // small sizes: in its own GPU layout the other tests run it, so this one adds the CPU layout
  // only there (unit.icd.algorithms.scan.cpu_layout) and just the smallest size in the GPU one.
  xgpu_test::for_each_device_and_type(
      [](xgpu::Context& context, xgpu::Queue& queue, auto tag) {
        using T = decltype(tag);
        const bool small = is_oclgrind(queue.device());
        if (small && xgpu_test::layout_in_effect("XGPU_SCAN_SHAPE", queue.device()) == "gpu") {
          check_scans(context, queue, random_terms<T>(1023, 200));
          return;
        }
        std::vector<std::size_t> sizes{1, 1023, 1025, 4099};
        if (!small) sizes.insert(sizes.end(), {104729, (std::size_t{1} << 20) + 3});
        INFO(xgpu_test::setting_note("XGPU_SCAN_SHAPE"));
        unsigned seed = 200;
        for (std::size_t n : sizes) check_scans(context, queue, random_terms<T>(n, seed++));
      },
      refuse_double);
}

// unit.icd.algorithms.bad_settings sets XGPU_SCAN_SHAPE=GPU (read once per process).
TEST_CASE("scans refuse an unknown XGPU_SCAN_SHAPE", "[.bad_settings]") {
  REQUIRE(xgpu_test::env("XGPU_SCAN_SHAPE") == std::string("GPU"));
  for_each_device([&](xgpu::Context& context, xgpu::Queue& queue, const xgpu::Device&) {
    xgpu::Buffer<float> x = upload(context, queue, std::vector<float>(5, 1.0f));
    check_error(capture_error([&] { xgpu::inclusive_scan(queue, x, x); }),
                xgpu::Errc::invalid_argument, {"XGPU_SCAN_SHAPE", "GPU"});
  });
}

TEST_CASE("the single-pass scan gives the same bits every time", "[scan]") {
  // Its tiles take their prefixes from whichever tiles before them are done (see scan.cl),
  // yet always add the same way: repeated runs, with other work in between, must agree.
  for (const xgpu::Device& device : xgpu::devices()) {
    if (!single_pass_safe(device)) continue;
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context context(device);
      xgpu::Queue queue = context.queue();
      const std::size_t n = is_oclgrind(device) ? 4099 : (std::size_t{1} << 20) + 3;
      const std::vector<float> host = random_terms<float>(n, 21);
      const xgpu::Buffer<float> in = upload(context, queue, host);
      xgpu::Buffer<float> out = context.alloc<float>(n);
      std::vector<float> first;
      for (int run = 0; run < 3; ++run) {
        xgpu::detail::scan_by(queue, in, out, 0.5f, false, "test scan", ScanMethod::single_pass);
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

TEST_CASE("the single-pass scan adds the input of tiles that are not done", "[scan]") {
  // The kernel itself, built from the embedded scan.cl, with the tile counter set so that the first
  // group to run takes the last tile while no other tile has published anything. It must add all
  // their input itself (the look-back's fallback), then the other groups finish the scan.
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
      const std::vector<float> host = random_terms<float>(n, 33);
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

TEST_CASE("scans near max_allocation / 8 bytes (PoCL)", "[scan]") {
  on_first_pocl([](xgpu::Context& context, xgpu::Queue& queue, const xgpu::Device& pocl) {
    // Float into another buffer; int32 for an exclusive scan in place.
    const std::size_t n = large_size<float>(pocl);
    const std::vector<float> x = random_terms<float>(n, 7);
    const xgpu::Buffer<float> dx = upload(context, queue, x);
    xgpu::Buffer<float> out = context.alloc<float>(n);
    xgpu::inclusive_scan(queue, dx, out);
    check_scan_values(x, queue.read(out), true, 0.0f);
    const std::vector<std::int32_t> ints =
        random_terms<std::int32_t>(large_size<std::int32_t>(pocl), 8);
    xgpu::Buffer<std::int32_t> dints = upload(context, queue, ints);
    // (xgpu::inclusive_scan above ran the single pass, which PoCL gets; this one the other.)
    xgpu::detail::scan_by(queue, dints, dints, -5, false, "test scan", ScanMethod::three_launches);
    check_scan_values(ints, queue.read(dints), false, -5);
  });
}

TEST_CASE("integer scans wrap modulo 2^32", "[scan]") {
  for_each_device([&](xgpu::Context& context, xgpu::Queue& queue, const xgpu::Device&) {
    const std::size_t n = 3001;
    check_scans(context, queue, std::vector<std::uint32_t>(n, 0xF0000001u));
    check_scans(context, queue,
                std::vector<std::int32_t>(n, std::numeric_limits<std::int32_t>::max()));
  });
}

TEST_CASE("scans of empty buffers and mismatched sizes", "[scan]") {
  for_each_device([&](xgpu::Context& context, xgpu::Queue& queue, const xgpu::Device&) {
    SizeCases sizes = size_cases(context, queue);
    xgpu::Buffer<float>&empty = sizes.empty, &other = sizes.other;
    xgpu::Buffer<float>&three = sizes.three, &four = sizes.four;
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
    check_error(capture_error([&] { xgpu::inclusive_scan(none, three, three); }),
                xgpu::Errc::invalid_handle);
    // The buffers are untouched by the refused calls.
    CHECK(queue.read(three) == std::vector<float>(3, 1.0f));
  });
}
