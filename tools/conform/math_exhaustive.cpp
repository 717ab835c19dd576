// `xgpu conform --full`: a one-argument float function checked on every one of the 2^32
// float bit patterns (or the narrower range a test sets in Env::exhaustive()). The device
// makes its inputs from the launch's base and its global id, so only results cross the bus;
// each batch is judged on the host by as many threads as there are cores.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <thread>

#include "math_check.hpp"

namespace xgpu::conform::math {
namespace {

std::string exhaustive_program_text() {
  std::string text = kFloatPrelude;
  for (const Function& f : float_function_table()) {
    if (!full_covers(f)) continue;
    text += "kernel void x_" + std::string(f.name) +
            "(uint base, global float* r_) {\n"
            "  size_t i = get_global_id(0);\n"
            "  float a = as_float(base + (uint)i), b = 0.0f, c = 0.0f;\n"
            "  r_[i] = " +
            f.expr + ";\n}\n";
  }
  return text;
}

struct Tally {
  std::uint64_t failures = 0;
  std::uint32_t worst_bits = 0;
  double worst_error = 0;
  float worst_result = 0;
};

float from_bits(std::uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

// Judges results[i] (input bits base + i) for i in [begin, end).
Tally judge(const Function& f, const std::vector<float>& results, std::uint32_t base,
            std::size_t begin, std::size_t end) {
  Tally tally;
  for (std::size_t i = begin; i < end; ++i) {
    const std::uint32_t bits = base + static_cast<std::uint32_t>(i);
    const double error = judged_error<float>(f, results[i], from_bits(bits), 0.0f, 0.0f);
    if (error == 0) continue;
    if (++tally.failures == 1 || error > tally.worst_error)
      tally.worst_error = error, tally.worst_bits = bits, tally.worst_result = results[i];
  }
  return tally;
}

Tally judge_in_threads(const Function& f, const std::vector<float>& results, std::uint32_t base,
                       std::size_t count) {
  const std::size_t threads =
      std::max<std::size_t>(1, std::min<std::size_t>(std::thread::hardware_concurrency(), 64));
  const std::size_t share = (count + threads - 1) / threads;
  std::vector<Tally> tallies(threads);
  std::vector<std::thread> workers;
  for (std::size_t t = 0; t < threads; ++t) {
    const std::size_t begin = std::min(count, t * share), end = std::min(count, begin + share);
    workers.emplace_back([&, t, begin, end] { tallies[t] = judge(f, results, base, begin, end); });
  }
  Tally total;
  for (std::size_t t = 0; t < threads; ++t) {
    workers[t].join();
    const Tally& one = tallies[t];
    if (one.failures == 0) continue;
    if (total.failures == 0 || one.worst_error > total.worst_error)
      total.worst_error = one.worst_error, total.worst_bits = one.worst_bits,
      total.worst_result = one.worst_result;
    total.failures += one.failures;
  }
  return total;
}

}  // namespace

Result check_exhaustive(Env& env, const Function& f) {
  const Env::Exhaustive& range = env.exhaustive();
  if (!full_covers(f))
    throw std::logic_error(std::string("--full of ") + f.name + ": not one argument");
  if (range.first >= range.end || range.end > (std::uint64_t{1} << 32) || range.batch == 0)
    throw std::invalid_argument(
        "--full: the range of bit patterns must be non-empty and within 2^32");
  const Program program = env.program("conform_math_exhaustive.cl", exhaustive_program_text());
  const Kernel kernel = program.kernel(std::string("x_") + f.name);
  const std::uint64_t total = range.end - range.first;
  const std::size_t batch = static_cast<std::size_t>(std::min<std::uint64_t>(range.batch, total));
  Buffer<float> device_results = env.context().alloc<float>(batch);
  std::vector<float> results(batch);
  Tally tally;
  for (std::uint64_t at = range.first; at < range.end; at += batch) {
    const std::size_t count =
        static_cast<std::size_t>(std::min<std::uint64_t>(batch, range.end - at));
    const auto base = static_cast<std::uint32_t>(at);
    env.queue().launch(kernel, Range{count}, base, device_results);
    env.queue().read(device_results, results.data());
    const Tally one = judge_in_threads(f, results, base, count);
    if (one.failures && (tally.failures == 0 || one.worst_error > tally.worst_error))
      tally.worst_error = one.worst_error, tally.worst_bits = one.worst_bits,
      tally.worst_result = one.worst_result;
    tally.failures += one.failures;
    if (range.progress)
      range.progress(std::string("float_") + f.name,
                     double(at + count - range.first) / double(total));
  }
  if (tally.failures == 0) return pass();
  const float in[3] = {from_bits(tally.worst_bits), 0.0f, 0.0f};
  return describe_failure<float>(f, static_cast<std::size_t>(tally.failures),
                                 static_cast<std::size_t>(total), in, tally.worst_result,
                                 tally.worst_error);
}

}  // namespace xgpu::conform::math
