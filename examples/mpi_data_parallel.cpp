// mpi_data_parallel: the linear model of data_parallel.cpp, trained on N MPI ranks, one device
// each. The rows of the data set are sharded across the ranks; the weights are replicated. Each
// step, every rank runs the forward GEMM and its share of the gradient on its own rows, puts
// the partial gradient and its share of the loss into a GradientBucket, which all-reduces them
// as one message, and applies the same update to its copy of the weights. At the end every
// rank's weights must match the same loop computed on the host in double (as in
// data_parallel.cpp), and every rank must hold the same weights, bit for bit.
//
//   mpirun -np 2 mpi_data_parallel [SELECTOR]    (docs/mpi.md: running it, as root too)
//
// The loss printed is the whole data set's, summed over the ranks; 1 and 2 ranks print the
// same loss to the rounding docs/mpi.md states.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>
#include <xgpu/algorithms.hpp>
#include <xgpu/mpi.hpp>
#include <xgpu/xgpu.hpp>

#include "example_support.hpp"  // random inputs, the model's data set and host loop

namespace {

using namespace example::linear_model;

// |device weight - host weight| allowed: data_parallel.cpp's bound, for the same reasons (the
// sum over ranks adds at most one rounding per rank to each gradient element).
constexpr double kTolerance = 1e-5;
// |device loss - host loss| / host loss allowed: each rank's loss is a float dot product of its
// residuals (relative error about sqrt(rows) u), summed over the ranks in float.
constexpr double kLossTolerance = 1e-5;

}  // namespace

int main(int argc, char** argv) {
  xgpu::mpi::Env env(argc, argv);
  const xgpu::mpi::Comm world = xgpu::mpi::Comm::world();
  const int rank = world.rank(), ranks = world.size();
  try {
    xgpu::Context context(xgpu::mpi::select_device(world, argc > 1 ? argv[1] : ""));
    xgpu::Queue q = context.queue();

    // The same data set on every rank (same seeds): Y = X W_true, which a linear model fits.
    const DataSet data = data_set();
    const std::vector<float>& x = data.x;
    const std::vector<float>& y = data.y;

    // This rank's rows [first, first + rows).
    const std::size_t first = kRows * rank / ranks;
    const std::size_t rows = kRows * (rank + 1) / ranks - first;
    auto xs = context.alloc<float>(rows * kIn);
    auto ys = context.alloc<float>(rows * kOut);
    auto residual = context.alloc<float>(rows * kOut);
    auto w = context.alloc<float>(kIn * kOut);
    auto gradient = context.alloc<float>(kIn * kOut);
    auto loss = context.alloc<float>(1);
    q.write(xs, &x[first * kIn], rows * kIn);
    q.write(ys, &y[first * kOut], rows * kOut);
    q.fill(w, 0.0f);
    std::printf("rank %d of %d: %zu rows on %s\n", rank, ranks, rows,
                context.device().describe().c_str());

    xgpu::mpi::GradientBucket bucket(q, world);
    std::vector<float> losses;
    for (int step = 0; step < kSteps; ++step) {
      if (rows > 0) {
        q.copy(ys, residual);  // residual = X W - Y
        xgpu::gemm<float>(q, rows, kOut, kIn, 1.0f, xs, w, -1.0f, residual);
        xgpu::gemm<float>(q, kIn, kOut, rows, 1.0f, xs, residual, 0.0f, gradient,
                          xgpu::Transpose::yes);  // X^T residual
        q.fill(loss, xgpu::dot(q, residual, residual) / (2.0f * kRows));
      } else {
        q.fill(gradient, 0.0f);
        q.fill(loss, 0.0f);
      }
      // Both go out as one all-reduce: every rank then holds the whole data set's.
      bucket.add(gradient);
      bucket.add(loss);
      bucket.wait();
      losses.push_back(q.read(loss)[0]);
      xgpu::axpy(q, -kRate / kRows, gradient, w);
    }

    // The weights: the same on every rank, bit for bit, and the host's to kTolerance.
    const std::vector<float> mine = q.read(w);
    std::vector<float> rank0 = mine;
    MPI_Bcast(rank0.data(), static_cast<int>(rank0.size()), MPI_FLOAT, 0, world.native());
    int differs = rank0 != mine ? 1 : 0;
    MPI_Allreduce(MPI_IN_PLACE, &differs, 1, MPI_INT, MPI_SUM, world.native());
    std::vector<double> host_losses;
    const std::vector<double> reference = host_training(data, host_losses);
    example::Errors errors, loss_errors;
    for (std::size_t j = 0; j < reference.size(); ++j)
      errors.add(std::fabs(mine[j] - reference[j]), kTolerance);
    for (int step = 0; step < kSteps; ++step)
      loss_errors.add(std::fabs(losses[step] - host_losses[step]) / host_losses[step],
                      kLossTolerance);
    const bool ok = differs == 0 && errors.wrong == 0 && loss_errors.wrong == 0;
    if (rank == 0) {
      std::printf(
          "%d steps on %d rank(s): loss from %.9g to %.9g (host: %.9g to %.9g); %d rank(s) "
          "differ from rank 0; largest weight error against the host %.3g (allowed %g), "
          "largest relative loss error %.3g (allowed %g)\n",
          kSteps, ranks, losses.front(), losses.back(), host_losses.front(), host_losses.back(),
          differs, errors.worst, kTolerance, loss_errors.worst, kLossTolerance);
    }
    int failed = ok ? 0 : 1;
    MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_MAX, world.native());
    if (rank == 0) std::printf("mpi_data_parallel: %s\n", failed ? "WRONG" : "OK");
    return failed;
  } catch (const xgpu::Error& e) {
    std::fprintf(stderr, "mpi_data_parallel (rank %d): %s\n", rank, e.what());
    MPI_Abort(MPI_COMM_WORLD, 1);
    return 1;
  }
}
