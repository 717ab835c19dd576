// Reductions (see xgpu/algorithms/reduce.hpp): one launch of a kernels/reduce.cl kernel leaves
// one partial result per work-group and vector lane; the host reads those few values and
// combines them, which costs less than a second launch and lets it add in higher precision.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>
#include <xgpu/algorithms/reduce.hpp>

#include "for_tests.hpp"
#include "support.hpp"

namespace xgpu::detail {
namespace {

using algo::ceil_div;
using algo::Element;
using algo::round_up;

/// How kernels see elements of T: Value is what arithmetic and comparisons use (float for
/// half and bfloat16), Sum what sums accumulate in (uint for int32, so that they wrap instead of
/// overflowing, which is undefined for signed integers in OpenCL C).
template <class T>
struct Types {
  using Value = T;
  using Sum = T;
};
template <>
struct Types<half> {
  using Value = float;
  using Sum = float;
};
template <>
struct Types<bfloat16> {
  using Value = float;
  using Sum = float;
};
template <>
struct Types<std::int32_t> {
  using Value = std::int32_t;
  using Sum = std::uint32_t;
};

/// The layout (layout_for, XGPU_REDUCE_SHAPE). CPU: devices that run a work-group's items one
/// after another on one thread, so each item reads one long contiguous stream with wide
/// vectors. GPU: neighbouring items on neighbouring memory (a simulator claiming several
/// types, Oclgrind, gets it too).
algo::Layout reduce_layout(const Queue& queue, const char* call) {
  return algo::layout_for(queue.device().info(), common::Setting::reduce_shape, call);
}
bool streams_per_item(algo::Layout layout) { return layout == algo::Layout::cpu; }

/// Elements per vector load: 16 floats fill an AVX-512 register (LLVM splits them on narrower
/// CPUs); GPUs do best with 16-byte loads per work-item.
std::size_t vector_width(algo::Layout layout) { return streams_per_item(layout) ? 16 : 4; }

template <class T>
std::string build_options(algo::Layout layout) {
  return std::string(Element<T>::options) + " -DXGPU_W=" + std::to_string(vector_width(layout));
}

/// A launch shape: `groups` work-groups of `work_group` items, reading vectors of `width`;
/// with `contiguous`, each item reads `chunk` consecutive elements (see reduce.cl). The kernels
/// leave groups * width partial results.
struct Plan {
  std::size_t groups = 1, work_group = 1, width = 1;
  unsigned chunk = 0, contiguous = 0;
  std::size_t partials() const { return groups * width; }
};

/// `scratch_bytes_per_lane`: the local memory each item needs per vector lane.
Plan make_plan(const Queue& queue, algo::Layout layout, const Kernel& kernel, std::size_t n,
               std::size_t scratch_bytes_per_lane) {
  const DeviceInfo& info = queue.device().info();
  const bool contiguous = streams_per_item(layout);
  const std::size_t width = vector_width(layout);
  const std::size_t scratch_bytes_per_item = scratch_bytes_per_lane * width;
  Plan plan;
  plan.width = width;
  plan.contiguous = contiguous ? 1 : 0;
  // Power of two for the tree in local memory; at most 256 items (the accuracy bound in
  // reduce.cl counts log2(256) roundings for the tree), and the scratch must fit in the
  // local memory the kernel leaves free.
  plan.work_group = algo::power_of_two_work_group(kernel, 256);
  const std::uint64_t free_local = ext::free_local_memory(kernel, info);
  while (plan.work_group > 1 && plan.work_group * scratch_bytes_per_item > free_local)
    plan.work_group /= 2;
  // Each item should have at least a few vectors to read (many on a CPU, where an item's
  // start-up costs more than a vector), so small inputs get fewer groups, and on GPUs and
  // simulators smaller ones too. (CPU devices keep the full size: PoCL compiles a kernel anew
  // for each work-group size, and idle items cost it little.) Large inputs get a few groups per
  // compute unit: a CPU device balances them over its threads, a GPU hides memory latency
  // with them.
  const std::size_t groups_per_unit = contiguous ? 2 : 8;
  const std::size_t vectors_per_item = contiguous ? 64 : 16;
  const std::size_t items =
      std::max<std::size_t>(1, ceil_div(ceil_div(n, width), vectors_per_item));
  if (!contiguous)
    while (plan.work_group / 2 >= items) plan.work_group /= 2;
  const std::size_t wanted = std::max<std::size_t>(info.compute_units, 1) * groups_per_unit;
  plan.groups = std::min(wanted, ceil_div(items, plan.work_group));
  if (contiguous) {
    const std::size_t chunk = round_up(ceil_div(n, plan.groups * plan.work_group), width);
    if (chunk > std::numeric_limits<unsigned>::max())
      algo::invalid("xgpu reductions", std::to_string(n) + " elements is too many for one item");
    plan.chunk = static_cast<unsigned>(chunk);
  }
  return plan;
}

template <class T>
Kernel reduce_kernel(const Queue& queue, algo::Layout layout, const char* name) {
  return algo::library_kernel(queue, "reduce.cl", name, build_options<T>(layout));
}

/// Adds the per-group, per-lane sums. Floats are added in double, so this step adds one rounding;
/// doubles with Neumaier's compensation (one or two roundings); integers wrap modulo 2^32.
template <class T>
scalar_t<T> combine_sums(const std::vector<typename Types<T>::Sum>& partials) {
  if constexpr (std::is_same_v<T, double>) {
    double sum = 0, lost = 0;
    for (double value : partials) {
      const double next = sum + value;
      lost += std::fabs(sum) >= std::fabs(value) ? (sum - next) + value : (value - next) + sum;
      sum = next;
    }
    return std::isfinite(sum) ? sum + lost : sum;  // past an infinity, lost is NaN
  } else if constexpr (std::is_same_v<scalar_t<T>, float>) {
    double sum = 0;
    for (float value : partials) sum += value;
    return static_cast<float>(sum);
  } else {
    std::uint32_t sum = 0;
    for (std::uint32_t value : partials) sum += value;
    if constexpr (std::is_same_v<T, std::int32_t>) {
      std::int32_t wrapped;  // the same bits: two's complement, modulo 2^32
      std::memcpy(&wrapped, &sum, sizeof sum);
      return wrapped;
    } else {
      return sum;
    }
  }
}

/// The terms xgpu_reduce_sum adds (TERM_* in reduce.cl).
enum class Term : unsigned { sum = 0, dot = 1, square = 2 };

/// Runs xgpu_reduce_sum over n elements of x (and y, for dot); `scale` for squares.
template <class T>
scalar_t<T> run_sum(Queue& queue, const char* call, Term term, std::size_t n, const Buffer<T>& x,
                    const Buffer<T>& y, typename Types<T>::Value scale = 0) {
  using Sum = typename Types<T>::Sum;
  const algo::Layout layout = reduce_layout(queue, call);
  const Kernel kernel = reduce_kernel<T>(queue, layout, "xgpu_reduce_sum");
  const Plan plan = make_plan(queue, layout, kernel, n, sizeof(Sum));
  Buffer<Sum> partials = queue.context().alloc<Sum>(plan.partials());
  const algo::Staged<T> sx(queue, x, algo::Use::read);
  const algo::Staged<T> sy(queue, ext::same_buffer(x, y) ? sx.get() : y, algo::Use::read);
  queue.launch(kernel, Range{plan.groups * plan.work_group}, Range{plan.work_group},
               static_cast<unsigned>(n), plan.chunk, plan.contiguous, static_cast<unsigned>(term),
               scale, sx.get(), sy.get(), partials, Local<Sum>(plan.work_group * plan.width));
  return combine_sums<T>(queue.read(partials));
}

/// Whether (a, ia) beats (b, ib) as an extreme: the rule of `beats` in reduce.cl.
template <class V>
bool beats(V a, std::uint32_t ia, V b, std::uint32_t ib, bool is_max) {
  constexpr std::uint32_t none = 0xffffffffu;
  if (ia == none) return false;
  if (ib == none) return true;
  const bool a_nan = a != a, b_nan = b != b;  // NOLINT: NaN test that also compiles for ints
  if (a_nan != b_nan) return a_nan;
  if (!a_nan && a != b) return is_max ? a > b : a < b;
  return ia < ib;
}

/// Runs xgpu_reduce_extreme (n > 0) and returns the best value and its index, of the
/// groups' per-lane bests; `absolute` compares |x|.
template <class T>
std::pair<typename Types<T>::Value, std::size_t> run_extreme(Queue& queue, const char* call,
                                                             std::size_t n, const Buffer<T>& x,
                                                             bool is_max, bool absolute) {
  using Value = typename Types<T>::Value;
  const algo::Layout layout = reduce_layout(queue, call);
  const Kernel kernel = reduce_kernel<T>(queue, layout, "xgpu_reduce_extreme");
  const Plan plan = make_plan(queue, layout, kernel, n, sizeof(Value) + sizeof(std::uint32_t));
  Buffer<Value> values = queue.context().alloc<Value>(plan.partials());
  Buffer<std::uint32_t> indices = queue.context().alloc<std::uint32_t>(plan.partials());
  const algo::Staged<T> sx(queue, x, algo::Use::read);
  queue.launch(kernel, Range{plan.groups * plan.work_group}, Range{plan.work_group},
               static_cast<unsigned>(n), plan.chunk, plan.contiguous, unsigned{is_max},
               unsigned{absolute}, sx.get(), values, indices,
               Local<Value>(plan.work_group * plan.width),
               Local<std::uint32_t>(plan.work_group * plan.width));
  const std::vector<Value> group_values = queue.read(values);
  const std::vector<std::uint32_t> group_indices = queue.read(indices);
  Value best = group_values[0];
  std::uint32_t best_index = group_indices[0];
  for (std::size_t g = 1; g < group_values.size(); ++g) {
    if (beats(group_values[g], group_indices[g], best, best_index, is_max)) {
      best = group_values[g];
      best_index = group_indices[g];
    }
  }
  return {best, best_index};
}

}  // namespace

template <class T>
scalar_t<T> reduce_sum(Queue& queue, const Buffer<T>& x) {
  const char* call = "xgpu::sum";
  algo::require_type<T>(queue, call);
  if (x.empty()) return scalar_t<T>(0);
  algo::require_uint_size(x.size(), call);
  return run_sum<T>(queue, call, Term::sum, x.size(), x, x);
}

template <class T>
scalar_t<T> reduce_dot(Queue& queue, const Buffer<T>& x, const Buffer<T>& y) {
  const char* call = "xgpu::dot";
  algo::require_type<T>(queue, call);
  if (y.size() != x.size()) algo::size_mismatch(call, "y", y.size(), x.size());
  if (x.empty()) return scalar_t<T>(0);
  algo::require_uint_size(x.size(), call);
  return run_sum<T>(queue, call, Term::dot, x.size(), x, y);
}

template <class T>
scalar_t<T> reduce_norm2(Queue& queue, const Buffer<T>& x) {
  using Value = typename Types<T>::Value;
  const char* call = "xgpu::norm2";
  algo::require_type<T>(queue, call);
  if (x.empty()) return Value(0);
  algo::require_uint_size(x.size(), call);
  const Value largest = run_extreme<T>(queue, call, x.size(), x, true, true).first;
  if (!std::isfinite(largest) || largest == 0) return largest;  // NaN, infinity or all zeros
  // Scale by 2^k with largest * 2^k in [0.5, 1): exact, and no square can overflow. k stays
  // within the normal exponents, so 2^k is representable; for a subnormal `largest` the
  // scaled values are then below 0.5, still far from underflow when squared.
  int exponent = 0;
  std::frexp(largest, &exponent);
  const int limit = std::numeric_limits<Value>::max_exponent - 2;
  const int k = std::clamp(-exponent, -limit, limit);
  const Value scale = std::ldexp(Value(1), k);
  const Value squares = run_sum<T>(queue, call, Term::square, x.size(), x, x, scale);
  return std::ldexp(std::sqrt(squares), -k);
}

template <class T>
std::pair<scalar_t<T>, std::size_t> reduce_extreme(Queue& queue, const Buffer<T>& x, bool is_max,
                                                   const char* call) {
  algo::require_type<T>(queue, call);
  if (x.empty())
    algo::invalid(call, std::string("the buffer is empty, and an empty buffer has no ") +
                            (is_max ? "largest" : "smallest") + " element");
  algo::require_uint_size(x.size(), call);
  return run_extreme<T>(queue, call, x.size(), x, is_max, false);
}

template <class T>
std::size_t reduce_work_group_size(const Queue& queue) {
  const char* call = "xgpu::detail::reduce_work_group_size";
  algo::require_type<T>(queue, call);
  const algo::Layout layout = reduce_layout(queue, call);
  const Kernel kernel = reduce_kernel<T>(queue, layout, "xgpu_reduce_sum");
  const std::size_t large = std::numeric_limits<std::uint32_t>::max();  // full-size groups
  return make_plan(queue, layout, kernel, large, sizeof(typename Types<T>::Sum)).work_group;
}

#define XGPU_REDUCE_INSTANTIATE(T)                                                               \
  template scalar_t<T> reduce_sum<T>(Queue&, const Buffer<T>&);                                  \
  template scalar_t<T> reduce_dot<T>(Queue&, const Buffer<T>&, const Buffer<T>&);                \
  template std::pair<scalar_t<T>, std::size_t> reduce_extreme<T>(Queue&, const Buffer<T>&, bool, \
                                                                 const char*);                   \
  template std::size_t reduce_work_group_size<T>(const Queue&);
XGPU_REDUCE_INSTANTIATE(float)
XGPU_REDUCE_INSTANTIATE(double)
XGPU_REDUCE_INSTANTIATE(std::int32_t)
XGPU_REDUCE_INSTANTIATE(std::uint32_t)
XGPU_REDUCE_INSTANTIATE(half)
XGPU_REDUCE_INSTANTIATE(bfloat16)
#undef XGPU_REDUCE_INSTANTIATE
template float reduce_norm2<float>(Queue&, const Buffer<float>&);
template double reduce_norm2<double>(Queue&, const Buffer<double>&);
template float reduce_norm2<half>(Queue&, const Buffer<half>&);
template float reduce_norm2<bfloat16>(Queue&, const Buffer<bfloat16>&);

}  // namespace xgpu::detail
