// The library suite's element-wise checks: the typed element-wise operations (float, half,
// int32), transpose (both of transpose.cl's kernels, whichever the device would pick) and
// row softmax, against host references at small sizes.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>
#include <xgpu/algorithms.hpp>

#include "check.hpp"

namespace xgpu::conform {
namespace {

/// Distance in floats between two finite floats of the same sign.
std::int64_t float_ulps(float a, float b) {
  std::int32_t x, y;
  std::memcpy(&x, &a, sizeof x);
  std::memcpy(&y, &b, sizeof y);
  return std::llabs(std::int64_t{x} - std::int64_t{y});
}

// float: sub exactly, exp within OpenCL's 3 ulp; half: mul, rounded once from float;
// int32: div with the library's x / 0 = 0.
Result elementwise_typed(Env& env) {
  const std::size_t n = env.size(3001, 203);
  Context& context = env.context();
  Queue& queue = env.queue();

  const std::vector<float> a = random_floats(n, 1, -20, 20), b = random_floats(n, 2, -20, 20);
  Buffer<float> da = context.alloc<float>(n), db = context.alloc<float>(n),
                out = context.alloc<float>(n);
  queue.write(da, a);
  queue.write(db, b);
  xgpu::sub(queue, da, db, out);
  std::vector<float> got = queue.read(out);
  for (std::size_t i = 0; i < n; ++i)
    if (got[i] != a[i] - b[i])
      return fail_expected("xgpu::sub<float> [" + std::to_string(i) + "]", a[i] - b[i], got[i]);
  xgpu::exp(queue, da, out);
  got = queue.read(out);
  for (std::size_t i = 0; i < n; ++i) {
    const float expected = static_cast<float>(std::exp(double(a[i])));
    if (float_ulps(got[i], expected) > 3)
      return fail_expected("xgpu::exp<float> of " + std::to_string(a[i]) + " within 3 ulp",
                           expected, got[i]);
  }

  std::vector<half> ha(n), hb(n);
  for (std::size_t i = 0; i < n; ++i) ha[i] = to_half(a[i]), hb[i] = to_half(b[i]);
  Buffer<half> dha = context.alloc<half>(n), dhb = context.alloc<half>(n);
  queue.write(dha, ha);
  queue.write(dhb, hb);
  xgpu::mul(queue, dha, dhb, dhb);  // in place
  const std::vector<half> hgot = queue.read(dhb);
  for (std::size_t i = 0; i < n; ++i) {
    const half expected = to_half(to_float(ha[i]) * to_float(hb[i]));
    if (hgot[i] != expected)
      return fail_expected("xgpu::mul<half> [" + std::to_string(i) + "]", to_float(expected),
                           to_float(hgot[i]));
  }

  const std::vector<std::int32_t> ia{100, -100, 7, std::numeric_limits<std::int32_t>::min(), 5};
  const std::vector<std::int32_t> ib{7, 7, 0, -1, -2};
  const std::vector<std::int32_t> expected{14, -14, 0, std::numeric_limits<std::int32_t>::min(),
                                           -2};
  Buffer<std::int32_t> dia = context.alloc<std::int32_t>(5), dib = context.alloc<std::int32_t>(5);
  queue.write(dia, ia);
  queue.write(dib, ib);
  xgpu::div(queue, dia, dib, dia);
  const std::vector<std::int32_t> igot = queue.read(dia);
  for (std::size_t i = 0; i < ia.size(); ++i)
    if (igot[i] != expected[i])
      return fail_expected(
          "xgpu::div<int32> " + std::to_string(ia[i]) + " / " + std::to_string(ib[i]), expected[i],
          igot[i]);
  return pass();
}

/// Launches one of transpose.cl's kernels directly, so both are checked on every device
/// (the library picks one by device type). The tiled one runs 16 x 4 items with a padded
/// 16 x 17 scratch; the blocked one 2 blocks of 8 x 8 per item.
Result transpose_kernel(Env& env, const char* kernel, unsigned rows, unsigned cols) {
  const Source source = kernels::source("transpose.cl");
  Program program = env.program("transpose.cl uint", source.text, "-DXGPU_T=uint -DXGPU_T_UINT");
  std::vector<std::uint32_t> in(std::size_t{rows} * cols);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<std::uint32_t>(i * 2654435761u);
  Buffer<std::uint32_t> din = env.context().alloc<std::uint32_t>(in.size()),
                        dout = env.context().alloc<std::uint32_t>(in.size());
  env.queue().write(din, in);
  if (std::string(kernel) == "xgpu_transpose_tiled") {
    const std::size_t tile = 16, passes = 4;
    if (env.info().max_work_group_size < tile * passes || env.info().local_memory < 2048)
      return skip("the tiled transpose here needs 64 items and 2 KiB of local memory");
    env.queue().launch(program.kernel(kernel),
                       Range{(cols + tile - 1) / tile * tile, (rows + tile - 1) / tile * passes},
                       Range{tile, passes}, rows, cols, din, dout,
                       Local<std::uint32_t>(tile * (tile + 1)));
  } else {
    const unsigned blocks = 2;
    env.queue().launch(program.kernel(kernel),
                       Range{(cols + 7) / 8, (rows + 8 * blocks - 1) / (8 * blocks)}, rows, cols,
                       blocks, din, dout);
  }
  const std::vector<std::uint32_t> got = env.queue().read(dout);
  for (unsigned r = 0; r < rows; ++r)
    for (unsigned c = 0; c < cols; ++c)
      if (got[std::size_t{c} * rows + r] != in[std::size_t{r} * cols + c])
        return fail_expected(std::string(kernel) + " " + std::to_string(rows) + "x" +
                                 std::to_string(cols) + " out[" + std::to_string(c) + "][" +
                                 std::to_string(r) + "]",
                             in[std::size_t{r} * cols + c], got[std::size_t{c} * rows + r]);
  return pass();
}

// The public transpose on half (bits moved unchanged, NaNs included), then both kernels.
Result transpose(Env& env) {
  const std::size_t rows = 37, cols = env.size(131, 45);
  std::vector<half> in(rows * cols);
  for (std::size_t i = 0; i < in.size(); ++i) in[i].bits = static_cast<std::uint16_t>(i * 40503u);
  Buffer<half> din = env.context().alloc<half>(in.size()),
               dout = env.context().alloc<half>(in.size());
  env.queue().write(din, in);
  xgpu::transpose(env.queue(), din, dout, rows, cols);
  const std::vector<half> got = env.queue().read(dout);
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c)
      if (got[c * rows + r] != in[r * cols + c])
        return fail_expected("xgpu::transpose<half> bits of out[" + std::to_string(c) + "][" +
                                 std::to_string(r) + "]",
                             in[r * cols + c].bits, got[c * rows + r].bits);
  for (const char* kernel : {"xgpu_transpose_tiled", "xgpu_transpose_blocks"}) {
    for (auto [r, c] :
         {std::pair{33u, 47u}, std::pair{1u, 70u}, std::pair{70u, 1u}, std::pair{40u, 16u}}) {
      Result result = transpose_kernel(env, kernel, r, c);
      if (result.outcome != Outcome::pass) return result;
    }
  }
  return pass();
}

/// Whether `got` is the softmax of the rows x cols `in` against a double reference; fails
/// naming `what` and the first wrong element. The relative bound, in float epsilons, is the
/// one tests/algorithms/test_softmax.cpp derives: each weight exp(x - m) within 3 ulp plus
/// |x - m| / 2 for the rounding of its argument; the row sum within the weights' mean error,
/// 2 for a compensated sum per work-item and one rounding per level of a work-group tree
/// (log2(cols)); 3 for the division; twice that for slack. It grows with log2(cols), so a
/// kernel whose sum drifts linearly with the row length fails on wide rows.
Result check_softmax(const std::string& what, const std::vector<float>& in,
                     const std::vector<float>& got, std::size_t rows, std::size_t cols) {
  const double epsilon = std::numeric_limits<float>::epsilon();
  const double tree_levels = cols > 1 ? std::ceil(std::log2(double(cols))) : 0;
  for (std::size_t r = 0; r < rows; ++r) {
    double maximum = -INFINITY, sum = 0, weighted_error = 0;
    for (std::size_t c = 0; c < cols; ++c) maximum = std::max(maximum, double(in[r * cols + c]));
    auto weight = [&](std::size_t c) {
      const double x = in[r * cols + c];
      return x == maximum ? 1.0 : std::exp(x - maximum);
    };
    auto weight_error = [&](std::size_t c) {
      const double x = in[r * cols + c];
      return x == maximum || weight(c) == 0 ? 0.0 : 3 + std::fabs(x - maximum) / 2;
    };
    for (std::size_t c = 0; c < cols; ++c) {
      sum += weight(c);
      weighted_error += weight(c) * weight_error(c);
    }
    const double sum_error = (sum > 0 ? weighted_error / sum : 0) + 2 + tree_levels;
    for (std::size_t c = 0; c < cols; ++c) {
      const double expected = weight(c) / sum, result = got[r * cols + c];
      const double bound = 2 * (weight_error(c) + sum_error + 3) * epsilon;
      if (!(std::fabs(result - expected) <= bound * expected + 1e-37))
        return fail_expected(what + " " + std::to_string(rows) + "x" + std::to_string(cols) + " [" +
                                 std::to_string(r) + "][" + std::to_string(c) + "]",
                             expected, result);
    }
  }
  return pass();
}

// Rows of random values, a row of -inf and one of +-1000, narrow and wide, through the
// public call and then through each of softmax.cl's kernels directly (the library picks
// one by row width and device type, so both are checked on every device).
Result softmax(Env& env) {
  const Source source = kernels::source("softmax.cl");
  Program program = env.program("softmax.cl float", source.text, "-DXGPU_T=float -DXGPU_T_FLOAT");
  for (std::size_t cols : {std::size_t{5}, env.size(700, 300)}) {
    const std::size_t rows = 4;
    std::vector<float> in = random_floats(rows * cols, unsigned(cols), -10, 10);
    for (std::size_t c = 0; c < cols; ++c) {
      in[cols + c] = -std::numeric_limits<float>::infinity();
      in[2 * cols + c] = c % 2 ? 1000.0f : -1000.0f;
    }
    Buffer<float> din = env.context().alloc<float>(in.size()),
                  dout = env.context().alloc<float>(in.size());
    env.queue().write(din, in);
    const auto r = static_cast<unsigned>(rows), c = static_cast<unsigned>(cols);

    xgpu::softmax_rows(env.queue(), din, dout, rows, cols);
    Result result =
        check_softmax("xgpu::softmax_rows<float>", in, env.queue().read(dout), rows, cols);
    if (result.outcome != Outcome::pass) return result;

    env.queue().launch(program.kernel("xgpu_softmax_rows_item"), Range{rows}, r, c, din, dout);
    result = check_softmax("xgpu_softmax_rows_item", in, env.queue().read(dout), rows, cols);
    if (result.outcome != Outcome::pass) return result;

    const std::size_t group = 32;  // a power of two below every device's limit
    if (env.info().max_work_group_size < group) continue;
    env.queue().launch(program.kernel("xgpu_softmax_rows_group"), Range{rows * group}, Range{group},
                       r, c, din, dout, Local<float>(group));
    result = check_softmax("xgpu_softmax_rows_group", in, env.queue().read(dout), rows, cols);
    if (result.outcome != Outcome::pass) return result;
  }
  return pass();
}

}  // namespace

void register_library_elementwise(Registry& registry) {
  registry.add("library", "elementwise_typed", "", elementwise_typed);
  registry.add("library", "transpose", "", transpose);
  registry.add("library", "softmax_rows", "", softmax);
}

}  // namespace xgpu::conform
