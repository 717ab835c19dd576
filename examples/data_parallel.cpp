// data_parallel: training steps of a linear model, data parallel over an xgpu::DeviceGroup.
// The rows of the data set are sharded across the devices; the weights are replicated. Each
// step: every device runs the forward GEMM and its share of the gradient on its own rows
// (for_each), the partial gradients are summed across the devices (all_reduce_sum), and every
// device applies the same update to its copy of the weights. At the end every copy must be
// bit for bit the same, and match the same loop computed on the host in double.
//
// The model (example_support.hpp): predictions P = X W (X: rows x kIn, W: kIn x kOut); loss =
// |P - Y|^2 / (2 rows); gradient = X^T (X W - Y) / rows; update W -= rate * gradient.
//
//   data_parallel [SELECTOR]     default "*": every visible device
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>
#include <xgpu/algorithms.hpp>
#include <xgpu/device_group.hpp>
#include <xgpu/xgpu.hpp>

#include "example_support.hpp"  // random inputs, the model's data set and host loop

namespace {

using namespace example::linear_model;

// |device weight - host weight| allowed. Worst-case bounds are loose here: GEMM's documented
// (k + 3) u sum|a||b| on the residual X W - Y (k = 32, |x| <= 1, |w| and |y| up to about 32)
// allows 1e-4 per step. Rounding errors of random signs grow like the square root of their
// count, and gradient descent contracts the earlier ones: measured 5e-8 on PoCL and Oclgrind.
// The tolerance is 100 times that, and 1000 times below what a shard skipped or a gradient
// summed twice does (1e-2 or more).
constexpr double kTolerance = 1e-5;

// What one device keeps for the whole loop: its rows of X and Y, and room for its residuals.
struct Shard {
  xgpu::Buffer<float> x, y, residual;
};

}  // namespace

int main(int argc, char** argv) {
  try {
    xgpu::DeviceGroup group(argc > 1 ? argv[1] : "*");
    // A data set a linear model fits exactly: Y = X W_true.
    const DataSet data = data_set();
    const std::vector<float>& x = data.x;
    const std::vector<float>& y = data.y;

    // The shards stay on their devices for every step, so the split of the rows must not
    // move. It should still follow the devices' speeds: for_each times each device, so let
    // the group run the forward GEMM on a sample of the rows (twice: a kernel's first call
    // pays its build), then fix the weights it measured. A device much slower than the
    // others (a simulator) may get no rows at all.
    const std::size_t sample = std::min(kRows, 32 * group.size());
    for (int pass = 0; pass < 2; ++pass) {
      group.for_each(sample, [&](xgpu::Queue& q, std::size_t, xgpu::Slice rows) {
        auto xs = q.context().alloc<float>(rows.count * kIn);
        auto ws = q.context().alloc<float>(kIn * kOut);
        auto ps = q.context().alloc<float>(rows.count * kOut);
        q.write(xs, &x[rows.offset * kIn], rows.count * kIn);
        q.fill(ws, 0.0f);
        xgpu::gemm<float>(q, rows.count, kOut, kIn, 1.0f, xs, ws, 0.0f, ps);
      });
    }
    group.set_weights(group.weights());
    const std::vector<float> zeros(kIn * kOut, 0.0f);
    xgpu::Distributed<float> w = group.broadcast(zeros);         // every device: all of W
    xgpu::Distributed<float> gradient = group.broadcast(zeros);  // and its partial gradient

    std::vector<Shard> shards(group.size());
    group.for_each(kRows, [&](xgpu::Queue& q, std::size_t d, xgpu::Slice rows) {
      Shard& s = shards[d];
      s.x = q.context().alloc<float>(rows.count * kIn);
      s.y = q.context().alloc<float>(rows.count * kOut);
      s.residual = q.context().alloc<float>(rows.count * kOut);
      q.write(s.x, &x[rows.offset * kIn], rows.count * kIn);
      q.write(s.y, &y[rows.offset * kOut], rows.count * kOut);
    });
    for (std::size_t d = 0; d < group.size(); ++d)
      std::printf("device %zu: %zu rows, %s\n", d, shards[d].x.size() / kIn,
                  group[d].device.describe().c_str());

    for (int step = 0; step < kSteps; ++step) {
      // Forward and backward on each device's rows (a device with no rows is not called; its
      // partial gradient stays zero).
      group.for_each(kRows, [&](xgpu::Queue& q, std::size_t d, xgpu::Slice rows) {
        const Shard& s = shards[d];
        q.copy(s.y, s.residual);  // residual = X W - Y
        xgpu::gemm<float>(q, rows.count, kOut, kIn, 1.0f, s.x, w.buffer(d), -1.0f, s.residual);
        xgpu::gemm<float>(q, kIn, kOut, rows.count, 1.0f, s.x, s.residual, 0.0f, gradient.buffer(d),
                          xgpu::Transpose::yes);  // X^T residual
      });
      group.all_reduce_sum(gradient);  // every device: the whole gradient
      // The update, on every device (a replicated Distributed gives each all of it).
      group.for_each(w, [&](xgpu::Queue& q, std::size_t d, xgpu::Slice) {
        xgpu::axpy(q, -kRate / kRows, gradient.buffer(d), w.buffer(d));
        q.fill(gradient.buffer(d), 0.0f);  // for a device with no rows, next step
      });
    }

    // Every copy of W, and the host's.
    std::vector<std::vector<float>> copies;
    for (std::size_t d = 0; d < group.size(); ++d)
      copies.push_back(group[d].queue.read(w.buffer(d)));
    std::size_t differing = 0;
    for (std::size_t d = 1; d < copies.size(); ++d) differing += copies[d] != copies[0];
    std::vector<double> losses;
    const std::vector<double> reference = host_training(data, losses);
    example::Errors errors;
    for (std::size_t j = 0; j < reference.size(); ++j)
      errors.add(std::fabs(copies[0][j] - reference[j]), kTolerance);
    std::printf(
        "%d steps on %zu device(s), loss (host) from %.3g to %.3g; %zu of %zu other "
        "copies differ from device 0's; largest error against the host %.3g (allowed "
        "%g)\n",
        kSteps, group.size(), losses.front(), losses.back(), differing, copies.size() - 1,
        errors.worst, kTolerance);
    const bool ok = differing == 0 && errors.wrong == 0;
    std::printf("data_parallel: %s\n", ok ? "OK" : "WRONG");
    return ok ? 0 : 1;
  } catch (const xgpu::Error& e) {
    std::fprintf(stderr, "data_parallel: %s\n", e.what());
    return 1;
  }
}
