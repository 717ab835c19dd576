// What test_reduce.cpp and test_scan.cpp share: the sizes a reduction or a scan is tried at
// (the largest on the first PoCL device), the buffers of the bad sizes,
// the inputs they sum, the accuracy model of reduce.hpp and scan.hpp (the unit roundoff
// and the host reference's arithmetic), and the loop over devices and element types.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>
#include <xgpu/algorithms.hpp>

#include "for_tests.hpp"  // runtime/algorithms/src: what the library exports for tests
#include "test_support.hpp"

namespace xgpu_test {

// A buffer's scalar: the type its sums come back in (float for half).
template <class T>
using Scalar = xgpu::scalar_t<T>;

// The unit roundoff of a type's arithmetic (half computes in float).
template <class T>
double unit_roundoff() {
  return std::is_same_v<T, double> ? std::ldexp(1.0, -53) : std::ldexp(1.0, -24);
}

// The host reference's arithmetic: double checks float results (its error, at most
// n 2^-53 sum(|x|), stays below 1/500 of the float bounds for the n <= 2^25 here) at a tenth of
// the cost of long double, which (64-bit mantissa on x86) checks double results.
template <class T>
using Reference = std::conditional_t<std::is_same_v<T, double>, long double, double>;

// Random terms with both signs (uint: non-negative): floats in [-1, 1), integers small enough
// that the sums of the tests do not wrap, except in the tests of wrapping.
template <class T>
std::vector<T> random_terms(std::size_t n, unsigned seed) {
  if constexpr (is_floating<T>)
    return random_values<T>(n, seed, -1.0, 1.0);
  else
    return random_values<T>(n, seed, -1000, 1000);
}

// The sizes every operation is tried at: 0, 1, 2, a prime, the reductions' work-group size
// -/+ 1, a size with vector tails, and 2^20 + 3 (on Oclgrind, which interprets every
// work-item, the prime 4099).
template <class T>
std::vector<std::size_t> sum_sizes(xgpu::Queue& queue) {
  const std::size_t group = xgpu::detail::reduce_work_group_size<T>(queue);
  std::vector<std::size_t> list{0, 1, 2, 97, group - 1, group + 1, 16 * group + 17};
  list.push_back(is_oclgrind(queue.device()) ? 4099 : (std::size_t{1} << 20) + 3);
  return list;
}

// About large_bytes() of T (PoCL: 128 MiB), not a round number.
template <class T>
std::size_t large_size(const xgpu::Device& device) {
  return large_bytes(device) / sizeof(T) - 13;
}

// Runs body(context, queue, device) on the first PoCL device only, in its own section, for the
// sizes near max_allocation: elsewhere too slow (Oclgrind) or not run in CI, and a second PoCL
// device runs the same code on the same memory (its seconds of host work and transfers would
// add nothing).
template <class Body>
void on_first_pocl(Body&& body) {
  const std::vector<xgpu::Device> all = xgpu::devices();
  const auto pocl = std::find_if(all.begin(), all.end(), is_pocl);
  REQUIRE(pocl != all.end());
  DYNAMIC_SECTION(pocl->describe()) {
    xgpu::Context context(*pocl);
    xgpu::Queue queue = context.queue();
    body(context, queue, *pocl);
  }
}

// The buffers of the tests of empty and mismatched sizes: two empty, one of 3 and one of 4
// floats (written, not filled: Oclgrind counts filled memory as uninitialized).
struct SizeCases {
  xgpu::Buffer<float> empty, other, three, four;
};
inline SizeCases size_cases(xgpu::Context& context, xgpu::Queue& queue) {
  return {context.alloc<float>(0), context.alloc<float>(0),
          upload(context, queue, std::vector<float>(3, 1.0f)),
          upload(context, queue, std::vector<float>(4, 1.0f))};
}

// Runs body(context, queue, T{}) for every element type on every device; on a device
// without fp64, refuse_double(context, queue) instead checks that double is refused.
template <class Body, class Refusal>
void for_each_device_and_type(Body&& body, Refusal&& refuse_double) {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context context(device);
      xgpu::Queue queue = context.queue();
      body(context, queue, float{});
      body(context, queue, std::int32_t{});
      body(context, queue, std::uint32_t{});
      body(context, queue, xgpu::half{});
      if (device.info().fp64) {
        body(context, queue, double{});
      } else {
        WARN("double skipped on " << device.describe() << ": no fp64 (cl_khr_fp64)");
        refuse_double(context, queue);
      }
    }
  }
}

}  // namespace xgpu_test
