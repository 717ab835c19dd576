// pipeline_parallel: a three-stage model, GEMM -> softmax -> GEMM, placed one stage per device
// of an xgpu::DeviceGroup (stage k on device k % size, so fewer devices than stages wrap), with
// micro-batches flowing through it: at step t stage k works on batch t - k, so once the
// pipeline is full every stage (and every device) is busy at once, each on its own batch.
// Between stages the activations go device to device (Queue::copy: a peer copy between CUDA
// devices, else staged through pinned host memory); only the model's input and output touch
// the host. Every output is checked against a host reference.
//
//   pipeline_parallel [SELECTOR]     default "*": every visible device
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>
#include <xgpu/algorithms.hpp>
#include <xgpu/device_group.hpp>
#include <xgpu/xgpu.hpp>

#include "example_support.hpp"  // random inputs, the tally of errors

namespace {

using example::random_floats;

constexpr std::size_t kBatches = 8;  // micro-batches
constexpr std::size_t kRows = 16;    // rows of one micro-batch
constexpr std::size_t kIn = 32, kHidden = 32, kOut = 16;
constexpr std::size_t kStages = 3;
// |output - reference| allowed. The first GEMM's documented bound, (k + 3) u sum|a||b| with
// k = 32, |x| <= 1 and |w1| <= 0.5, is at most 35 * 2^-24 * 16 = 3.3e-5 on a hidden value;
// softmax turns an absolute error e of its inputs into a relative error of at most 2e of its
// outputs, which sum to 1 and meet |w2| <= 0.5 in the second GEMM: 3.3e-5 plus that GEMM's
// and softmax's own few ulps. A batch skipped, repeated or sent to the wrong stage is off by
// 1e-2 or more.
constexpr double kTolerance = 1e-4;

// out (m x n) = a (m x k) * b (k x n), row-major, in double.
std::vector<double> host_gemm(const std::vector<double>& a, const std::vector<float>& b,
                              std::size_t m, std::size_t k, std::size_t n) {
  std::vector<double> out(m * n, 0.0);
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t p = 0; p < k; ++p)
      for (std::size_t j = 0; j < n; ++j) out[i * n + j] += a[i * k + p] * b[p * n + j];
  return out;
}

void host_softmax_rows(std::vector<double>& x, std::size_t rows, std::size_t cols) {
  for (std::size_t r = 0; r < rows; ++r) {
    double* row = &x[r * cols];
    const double top = *std::max_element(row, row + cols);
    double total = 0;
    for (std::size_t c = 0; c < cols; ++c) total += row[c] = std::exp(row[c] - top);
    for (std::size_t c = 0; c < cols; ++c) row[c] /= total;
  }
}

// One stage on its device: its weights (if any), its input, and two output buffers: while the
// next stage copies batch b out of one, this stage writes batch b + 1 into the other.
struct Stage {
  xgpu::Queue queue;
  xgpu::Buffer<float> weights, in;
  xgpu::Buffer<float> out[2];
  std::size_t in_cols, out_cols;
  std::size_t device;
};

// Enqueues stage k's work on batch b: its input from the host (stage 0) or from the previous
// stage's output of that batch, device to device; the compute; the output to the host (the
// last stage). Nothing here waits but a staged copy, which returns once it has read its
// source. GEMM uses xgpu's kernel engine: the automatic choice on a CPU device may be the host
// BLAS, which computes on this thread before returning and would hold back the stages
// enqueued after it.
void enqueue_stage(std::vector<Stage>& stages, std::size_t k, std::size_t b,
                   const std::vector<float>& in, std::vector<float>& out) {
  Stage& s = stages[k];
  if (k == 0) {
    s.queue.write_async(s.in, in.data());
  } else {
    s.queue.copy(stages[k - 1].out[b % 2], s.in);
  }
  xgpu::Buffer<float>& result = s.out[b % 2];
  if (k == 1) {
    xgpu::softmax_rows(s.queue, s.in, result, kRows, s.in_cols);
  } else {
    xgpu::gemm<float>(s.queue, kRows, s.out_cols, s.in_cols, 1.0f, s.in, s.weights, 0.0f, result,
                      xgpu::Transpose::no, xgpu::Transpose::no, xgpu::GemmEngine::kernel);
  }
  if (k + 1 == stages.size()) s.queue.read_async(result, out.data());
}

}  // namespace

int main(int argc, char** argv) {
  try {
    xgpu::DeviceGroup group(argc > 1 ? argv[1] : "*");
    const std::vector<float> w1 = random_floats(kIn * kHidden, 0.5f, 1);
    const std::vector<float> w2 = random_floats(kHidden * kOut, 0.5f, 2);
    const std::size_t cols[kStages + 1] = {kIn, kHidden, kHidden, kOut};

    std::vector<Stage> stages(kStages);
    for (std::size_t k = 0; k < kStages; ++k) {
      Stage& s = stages[k];
      s.device = k % group.size();
      const xgpu::DeviceGroup::Member& member = group[s.device];
      s.queue = member.queue;
      s.in_cols = cols[k];
      s.out_cols = cols[k + 1];
      s.in = member.context.alloc<float>(kRows * s.in_cols);
      for (auto& out : s.out) out = member.context.alloc<float>(kRows * s.out_cols);
      if (k != 1) {
        s.weights = member.context.alloc<float>(s.in_cols * s.out_cols);
        s.queue.write(s.weights, k == 0 ? w1 : w2);
      }
      std::printf("stage %zu (%s) on device %zu: %s\n", k, k == 1 ? "softmax" : "GEMM", s.device,
                  member.device.describe().c_str());
    }

    std::vector<std::vector<float>> inputs, outputs(kBatches, std::vector<float>(kRows * kOut));
    for (std::size_t b = 0; b < kBatches; ++b)
      inputs.push_back(random_floats(kRows * kIn, 1.0f, 100 + unsigned(b)));

    // Step t: stage k takes batch t - k, whose input stage k - 1 made at step t - 1 (into
    // out[(t - k) % 2], while it now writes the other). The last stage is enqueued first: a
    // copy waits for everything enqueued so far on the queues that used its source, which
    // must not include the previous stage's work of this step. Finishing every queue at the
    // end of a step is the only other synchronisation: a stage never overwrites an output
    // before the next stage's copy of it has completed.
    for (std::size_t t = 0; t < kBatches + kStages - 1; ++t) {
      std::string schedule;
      for (std::size_t k = kStages; k-- > 0;) {
        if (t < k || t - k >= kBatches) continue;
        const std::size_t b = t - k;
        enqueue_stage(stages, k, b, inputs[b], outputs[b]);
        schedule += " stage " + std::to_string(k) + ": batch " + std::to_string(b) + ";";
      }
      for (Stage& s : stages) s.queue.finish();
      std::printf("step %zu:%s\n", t, schedule.c_str());
    }

    example::Errors errors;
    for (std::size_t b = 0; b < kBatches; ++b) {
      std::vector<double> x(inputs[b].begin(), inputs[b].end());
      std::vector<double> hidden = host_gemm(x, w1, kRows, kIn, kHidden);
      host_softmax_rows(hidden, kRows, kHidden);
      const std::vector<double> reference = host_gemm(hidden, w2, kRows, kHidden, kOut);
      for (std::size_t i = 0; i < reference.size(); ++i)
        errors.add(std::fabs(outputs[b][i] - reference[i]), kTolerance);
    }
    const bool ok = errors.wrong == 0;
    std::printf(
        "%zu batches through %zu stages on %zu device(s); largest error %.3g (allowed %g)\n",
        kBatches, kStages, group.size(), errors.worst, kTolerance);
    std::printf("pipeline_parallel: %s\n", ok ? "OK" : "WRONG");
    return ok ? 0 : 1;
  } catch (const xgpu::Error& e) {
    std::fprintf(stderr, "pipeline_parallel: %s\n", e.what());
    return 1;
  }
}
