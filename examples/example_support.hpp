// What the many-device examples share, none of it xgpu: random inputs, the tally of errors
// against a host reference, and the linear model that data_parallel.cpp and
// mpi_data_parallel.cpp both train (its data set and its training loop on the host).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <random>
#include <vector>

namespace example {

inline std::vector<float> random_floats(std::size_t n, float bound, unsigned seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<float> uniform(-bound, bound);
  std::vector<float> values(n);
  for (float& v : values) v = uniform(random);
  return values;
}

// The largest error seen and how many exceeded their tolerance, counted apart from `worst`:
// a NaN never compares greater.
struct Errors {
  double worst = 0;
  std::size_t wrong = 0;

  void add(double error, double tolerance) {
    worst = std::max(worst, error);
    if (!(error <= tolerance)) ++wrong;
  }
};

// The linear model: predictions P = X W (X: rows x kIn, W: kIn x kOut); loss = |P - Y|^2 /
// (2 rows); gradient = X^T (X W - Y) / rows; update W -= rate * gradient.
namespace linear_model {

constexpr std::size_t kRows = 1001;  // odd, so the shards differ in size
constexpr std::size_t kIn = 32, kOut = 4;
constexpr int kSteps = 20;
constexpr float kRate = 1.0f;

// A data set the model fits exactly, the same on every call (fixed seeds): Y = X W_true.
struct DataSet {
  std::vector<float> x, y;
};

inline DataSet data_set() {
  DataSet data{random_floats(kRows * kIn, 1.0f, 1), std::vector<float>(kRows * kOut, 0.0f)};
  const std::vector<float> w_true = random_floats(kIn * kOut, 1.0f, 2);
  for (std::size_t r = 0; r < kRows; ++r)
    for (std::size_t i = 0; i < kIn; ++i)
      for (std::size_t o = 0; o < kOut; ++o)
        data.y[r * kOut + o] += data.x[r * kIn + i] * w_true[i * kOut + o];
  return data;
}

// The training loop on the host, in double; returns the weights and every step's loss.
inline std::vector<double> host_training(const DataSet& data, std::vector<double>& losses) {
  std::vector<double> w(kIn * kOut, 0.0), gradient(kIn * kOut), residual(kOut);
  for (int step = 0; step < kSteps; ++step) {
    std::fill(gradient.begin(), gradient.end(), 0.0);
    double loss = 0;
    for (std::size_t r = 0; r < kRows; ++r) {
      for (std::size_t o = 0; o < kOut; ++o) {
        double p = 0;
        for (std::size_t i = 0; i < kIn; ++i) p += double(data.x[r * kIn + i]) * w[i * kOut + o];
        residual[o] = p - data.y[r * kOut + o];
        loss += residual[o] * residual[o] / (2.0 * kRows);
      }
      for (std::size_t i = 0; i < kIn; ++i)
        for (std::size_t o = 0; o < kOut; ++o)
          gradient[i * kOut + o] += data.x[r * kIn + i] * residual[o];
    }
    for (std::size_t j = 0; j < w.size(); ++j) w[j] -= double(kRate) / kRows * gradient[j];
    losses.push_back(loss);
  }
  return w;
}

}  // namespace linear_model
}  // namespace example
