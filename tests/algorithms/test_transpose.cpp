// xgpu::transpose on every device, against the host's index arithmetic: every element type
// (half with every bit pattern, NaNs included, which must move unchanged), empty, thin,
// square and odd shapes around the kernel's tiles, buffers larger than the matrix (the rest
// left alone), and the errors. Both layouts run everywhere (XGPU_TRANSPOSE_SHAPE unset, cpu,
// gpu): the tiled GPU kernel on PoCL with partial tiles and non-square shapes, the CPU
// kernels on Oclgrind at small sizes; PoCL also runs the CPU streaming kernel (matrices of
// 8 MiB and more with rows % 16 == 0), which is too large for Oclgrind.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>
#include <xgpu/algorithms.hpp>

#include "test_support.hpp"

using xgpu::half;
using namespace xgpu_test;

namespace {

/// Values whose bits differ everywhere; half gets every 16-bit pattern, NaNs included, which
/// transpose must move unchanged.
template <class T>
std::vector<T> distinct_values(std::size_t n) {
  std::vector<T> values(n);
  for (std::size_t i = 0; i < n; ++i) {
    if constexpr (std::is_same_v<T, half>)
      values[i] = half{static_cast<std::uint16_t>(i * 40503u + 7u)};
    else
      values[i] = static_cast<T>(i * 3 + 1);
  }
  return values;
}

template <class T>
void check_transpose(xgpu::Context& context, xgpu::Queue& queue, std::size_t rows, std::size_t cols,
                     std::size_t extra = 0) {
  INFO(type_name<T>() << " transpose of " << rows << " x " << cols);
  const std::vector<T> in = distinct_values<T>(rows * cols + extra);
  xgpu::Buffer<T> din = upload(context, queue, in);
  std::vector<T> sentinel(rows * cols + extra, distinct_values<T>(1)[0]);
  xgpu::Buffer<T> dout = upload(context, queue, sentinel);
  xgpu::Event event = xgpu::transpose(queue, din, dout, rows, cols);
  CHECK(static_cast<bool>(event) == (rows * cols != 0));
  const std::vector<T> got = queue.read(dout);
  std::size_t wrong = 0;
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c)
      if (!(got[c * rows + r] == in[r * cols + c]) && wrong++ < 5)
        FAIL_CHECK("out[" << c << "][" << r << "] differs from in[" << r << "][" << c << "]");
  CHECK(wrong == 0);
  for (std::size_t i = rows * cols; i < got.size(); ++i) CHECK(got[i] == sentinel[i]);  // untouched
}

template <class T>
void transpose_shapes_in_layout(const xgpu::Device& device) {
  xgpu::Context context(device);
  xgpu::Queue queue = context.queue();
  const std::size_t n = is_oclgrind(device) ? 131 : 4099;
  const std::pair<std::size_t, std::size_t> shapes[] = {
      {0, 0}, {0, 5}, {5, 0}, {1, 1}, {1, n}, {n, 1}, {2, 3}, {33, 65}, {17, 100}, {64, 64}};
  for (const auto& [rows, cols] : shapes) check_transpose<T>(context, queue, rows, cols);
  check_transpose<T>(context, queue, 31, 33, 7);  // larger buffers: the rest is left alone
  if (is_oclgrind(device)) {
    check_transpose<T>(context, queue, 37, 131);
  } else {
    check_transpose<T>(context, queue, 37, 1031);
    check_transpose<T>(context, queue, 1031, 37);
    check_transpose<T>(context, queue, 1000, 1025);
    // The streaming kernel's sizes (8 MiB and more, rows % 16 == 0; 4- and 8-byte types):
    // a partial 16-column tile at the right edge, a partial 256-column item, and its
    // neighbours that go to the blocks kernel (rows % 16 != 0, or just under 8 MiB).
    const std::size_t big = (std::size_t{8} << 20) / sizeof(T);
    check_transpose<T>(context, queue, 1024, big / 1024 + 7);
    check_transpose<T>(context, queue, 16 * 1031, big / (16 * 1031) + 1, 5);
    check_transpose<T>(context, queue, 1025, big / 1024 + 7);
    check_transpose<T>(context, queue, 1024, big / 1024 - 1);
  }
}

template <class T>
void transpose_shapes(const xgpu::Device& device) {
  if (!supported<T>(device)) return;
  // In the CTest entry's layout (XGPU_TRANSPOSE_SHAPE, read once per process): unset, the
  // device's own (CPU on PoCL, GPU on Oclgrind); the entries of tests/CMakeLists.txt run this
  // case in each layout on each device.
  INFO(xgpu_test::setting_note("XGPU_TRANSPOSE_SHAPE"));
  transpose_shapes_in_layout<T>(device);
}

}  // namespace

TEST_CASE("transpose of every type and shape", "[transpose][shaped]") {
  for_each_device_and_element_type(
      [](const xgpu::Device& device, auto tag) { transpose_shapes<decltype(tag)>(device); });
}

TEST_CASE("transpose errors: small buffers, the same buffer, overflow", "[transpose]") {
  for_each_device([&](xgpu::Context& context, xgpu::Queue& queue, const xgpu::Device&) {
    auto a = context.alloc<float>(12), b = context.alloc<float>(11);
    const xgpu::Errc invalid = xgpu::Errc::invalid_argument;
    check_error(capture_error([&] { xgpu::transpose(queue, a, b, 3, 4); }), invalid,
                {"xgpu::transpose", "out", "11", "12"});
    check_error(capture_error([&] { xgpu::transpose(queue, b, a, 4, 3); }), invalid,
                {"xgpu::transpose", "in"});
    check_error(capture_error([&] { xgpu::transpose(queue, a, a, 3, 4); }), invalid,
                {"xgpu::transpose", "same buffer"});
    check_error(capture_error([&] {
                  xgpu::transpose(queue, a, b, std::size_t{1} << 40, std::size_t{1} << 30);
                }),
                invalid, {"xgpu::transpose"});
    // 2^31 elements: one past what the kernels' 32-bit indices take with a tile's headroom.
    check_error(capture_error([&] { xgpu::transpose(queue, a, b, std::size_t{1} << 31, 1); }),
                invalid, {"xgpu::transpose", "2^31 - 1"});
    CHECK_FALSE(xgpu::transpose(queue, a, a, 0, 4));  // nothing to move: not an error
  });
}

// The layout variable takes cpu or gpu only; a bad value is an error at any size.
// unit.icd.algorithms.bad_settings sets XGPU_TRANSPOSE_SHAPE=sideways (read once per process).
TEST_CASE("transpose refuses an unknown XGPU_TRANSPOSE_SHAPE", "[.bad_settings]") {
  REQUIRE(xgpu_test::env("XGPU_TRANSPOSE_SHAPE") == std::string("sideways"));
  for_each_device([&](xgpu::Context& context, xgpu::Queue& queue, const xgpu::Device&) {
    auto a = context.alloc<float>(12), b = context.alloc<float>(11);
    for (std::size_t rows : {std::size_t{3}, std::size_t{0}})
      check_error(capture_error([&] { xgpu::transpose(queue, a, b, rows, 3); }),
                  xgpu::Errc::invalid_argument, {"XGPU_TRANSPOSE_SHAPE", "sideways", "cpu, gpu"});
  });
}
