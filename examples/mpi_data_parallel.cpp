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
#include <random>
#include <vector>
#include <xgpu/algorithms.hpp>
#include <xgpu/mpi.hpp>
#include <xgpu/xgpu.hpp>

namespace {

constexpr std::size_t kRows = 1001;  // odd, so the shards differ in size
constexpr std::size_t kIn = 32, kOut = 4;
constexpr int kSteps = 20;
constexpr float kRate = 1.0f;
// |device weight - host weight| allowed: data_parallel.cpp's bound, for the same reasons (the
// sum over ranks adds at most one rounding per rank to each gradient element).
constexpr double kTolerance = 1e-5;
// |device loss - host loss| / host loss allowed: each rank's loss is a float dot product of its
// residuals (relative error about sqrt(rows) u), summed over the ranks in float.
constexpr double kLossTolerance = 1e-5;

std::vector<float> random_floats(std::size_t n, float bound, unsigned seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<float> uniform(-bound, bound);
  std::vector<float> values(n);
  for (float& v : values) v = uniform(random);
  return values;
}

// The training loop on the host in double; returns the weights and every step's loss.
std::vector<double> host_training(const std::vector<float>& x, const std::vector<float>& y,
                                  std::vector<double>& losses) {
  std::vector<double> w(kIn * kOut, 0.0), gradient(kIn * kOut), residual(kOut);
  for (int step = 0; step < kSteps; ++step) {
    std::fill(gradient.begin(), gradient.end(), 0.0);
    double loss = 0;
    for (std::size_t r = 0; r < kRows; ++r) {
      for (std::size_t o = 0; o < kOut; ++o) {
        double p = 0;
        for (std::size_t i = 0; i < kIn; ++i) p += double(x[r * kIn + i]) * w[i * kOut + o];
        residual[o] = p - y[r * kOut + o];
        loss += residual[o] * residual[o] / (2.0 * kRows);
      }
      for (std::size_t i = 0; i < kIn; ++i)
        for (std::size_t o = 0; o < kOut; ++o)
          gradient[i * kOut + o] += x[r * kIn + i] * residual[o];
    }
    for (std::size_t j = 0; j < w.size(); ++j) w[j] -= double(kRate) / kRows * gradient[j];
    losses.push_back(loss);
  }
  return w;
}

}  // namespace

int main(int argc, char** argv) {
  xgpu::mpi::Env env(argc, argv);
  const xgpu::mpi::Comm world = xgpu::mpi::Comm::world();
  const int rank = world.rank(), ranks = world.size();
  try {
    xgpu::Context context(xgpu::mpi::select_device(world, argc > 1 ? argv[1] : ""));
    xgpu::Queue q = context.queue();

    // The same data set on every rank (same seeds): Y = X W_true, which a linear model fits.
    const std::vector<float> x = random_floats(kRows * kIn, 1.0f, 1);
    const std::vector<float> w_true = random_floats(kIn * kOut, 1.0f, 2);
    std::vector<float> y(kRows * kOut, 0.0f);
    for (std::size_t r = 0; r < kRows; ++r)
      for (std::size_t i = 0; i < kIn; ++i)
        for (std::size_t o = 0; o < kOut; ++o)
          y[r * kOut + o] += x[r * kIn + i] * w_true[i * kOut + o];

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
    const std::vector<double> reference = host_training(x, y, host_losses);
    double worst = 0, worst_loss = 0;
    std::size_t wrong = 0;  // counted apart from `worst`: a NaN never compares greater
    for (std::size_t j = 0; j < reference.size(); ++j) {
      const double error = std::fabs(mine[j] - reference[j]);
      worst = std::max(worst, error);
      if (!(error <= kTolerance)) ++wrong;
    }
    for (int step = 0; step < kSteps; ++step) {
      const double error = std::fabs(losses[step] - host_losses[step]) / host_losses[step];
      worst_loss = std::max(worst_loss, error);
      if (!(error <= kLossTolerance)) ++wrong;
    }
    const bool ok = differs == 0 && wrong == 0;
    if (rank == 0) {
      std::printf(
          "%d steps on %d rank(s): loss from %.9g to %.9g (host: %.9g to %.9g); %d rank(s) "
          "differ from rank 0; largest weight error against the host %.3g (allowed %g), "
          "largest relative loss error %.3g (allowed %g)\n",
          kSteps, ranks, losses.front(), losses.back(), host_losses.front(), host_losses.back(),
          differs, worst, kTolerance, worst_loss, kLossTolerance);
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
