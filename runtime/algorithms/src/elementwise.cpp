// Element-wise operations: each launches one kernel of kernels/elementwise.cl, built once per
// context, element type (-DXGPU_T=...) and layout (-DXGPU_EW_W=...) with every operation's
// kernel in it.
#include <xgpu/algorithms/elementwise.hpp>
#include <xgpu/error.hpp>

#include "support.hpp"

namespace xgpu::detail {
namespace {

using algo::Element;

/// Elements per work-item (XGPU_EW_W in elementwise.cl): the GPU layout gives each item one
/// element, so that a warp's loads and stores coalesce; the CPU layout a block of 16 (a
/// 64-byte line of floats), which the compiler turns into vector code (see elementwise.cl).
/// XGPU_ELEMENTWISE_SHAPE=cpu|gpu overrides the choice.
std::size_t elements_per_item(const Queue& queue, const char* call) {
  return algo::layout_for(queue.device().info(), common::Setting::elementwise_shape, call) ==
                 algo::Layout::cpu
             ? 16
             : 1;
}

/// The kernel `name` of elementwise.cl and the elements each of its items takes.
struct ElementKernel {
  Kernel kernel;
  std::size_t per_item;
};

/// The kernel `name` for T; half computes natively where the device has cl_khr_fp16 and
/// `native_ok` (the operation's scalar, if any, is a half value: see half_scalar).
template <class T>
ElementKernel elementwise_kernel(const Queue& queue, const char* name, const char* call,
                                 bool native_ok = true) {
  const std::size_t per_item = elements_per_item(queue, call);
  std::string options =
      std::string(Element<T>::options) + " -DXGPU_EW_W=" + std::to_string(per_item);
  if (std::is_same_v<T, half> && native_ok && native_half_arithmetic(queue))
    options += " -DXGPU_HALF_NATIVE";
  return {algo::library_kernel(queue, "elementwise.cl", name, options), per_item};
}

/// Whether a scalar of axpy or scale is a half value, which native half arithmetic can use
/// as it is. Others (65536, 0.1, 1e-8) keep their float value on the float path: rounded to
/// half they would change the result (65536 becomes infinity).
bool half_scalar(float value) { return to_float(to_half(value)) == value; }

/// Launches `kernel` over ceil(n / per_item) items in work-groups the kernel allows.
template <class... Args>
Event launch_per_element(Queue& queue, const ElementKernel& kernel, std::size_t n,
                         const Args&... args) {
  const std::size_t group = algo::work_group_size(kernel.kernel);
  const std::size_t items = algo::ceil_div(n, kernel.per_item);
  return queue.launch(kernel.kernel, Range{algo::round_up(items, group)}, Range{group},
                      static_cast<unsigned>(n), args...);
}

/// Checks every buffer holds n elements (the first one's count) and that n fits the
/// kernels' uint indices; returns n.
template <class T>
std::size_t common_size(const char* call,
                        std::initializer_list<std::pair<const char*, const Buffer<T>*>> buffers) {
  const std::size_t n = buffers.begin()->second->size();
  for (const auto& [name, buffer] : buffers) {
    if (buffer->size() != n)
      algo::size_mismatch(call, std::string("buffer ") + name, buffer->size(), n);
  }
  algo::require_uint_size(n, call);
  return n;
}

struct OpInfo {
  const char* call;    ///< the public function's name, for errors
  const char* kernel;  ///< its kernel in elementwise.cl
};

OpInfo op_info(ElementwiseOp op) {
  switch (op) {
    case ElementwiseOp::add:
      return {"xgpu::add", "xgpu_ew_add"};
    case ElementwiseOp::sub:
      return {"xgpu::sub", "xgpu_ew_sub"};
    case ElementwiseOp::mul:
      return {"xgpu::mul", "xgpu_ew_mul"};
    case ElementwiseOp::div:
      return {"xgpu::div", "xgpu_ew_div"};
    case ElementwiseOp::abs:
      return {"xgpu::abs", "xgpu_ew_abs"};
    case ElementwiseOp::relu:
      return {"xgpu::relu", "xgpu_ew_relu"};
    case ElementwiseOp::exp:
      return {"xgpu::exp", "xgpu_ew_exp"};
    case ElementwiseOp::log:
      return {"xgpu::log", "xgpu_ew_log"};
    case ElementwiseOp::sqrt:
      return {"xgpu::sqrt", "xgpu_ew_sqrt"};
    case ElementwiseOp::sigmoid:
      return {"xgpu::sigmoid", "xgpu_ew_sigmoid"};
    case ElementwiseOp::tanh:
      return {"xgpu::tanh", "xgpu_ew_tanh"};
  }
  throw Error(Errc::invalid_argument, "unknown element-wise operation", "xgpu::elementwise");
}

bool is_binary(ElementwiseOp op) {
  return op == ElementwiseOp::add || op == ElementwiseOp::sub || op == ElementwiseOp::mul ||
         op == ElementwiseOp::div;
}

bool is_math(ElementwiseOp op) {
  return op == ElementwiseOp::exp || op == ElementwiseOp::log || op == ElementwiseOp::sqrt ||
         op == ElementwiseOp::sigmoid || op == ElementwiseOp::tanh;
}

}  // namespace
}  // namespace xgpu::detail

namespace xgpu {
bool native_half_arithmetic(const Queue& queue) {
  detail::algo::require_queue(queue, "xgpu::native_half_arithmetic");
  return queue.device().info().fp16;
}
}  // namespace xgpu

namespace xgpu::detail {

template <class T>
Event elementwise_fill(Queue& queue, const Buffer<T>& x, scalar_t<T> value) {
  const char* call = "xgpu::fill";
  algo::require_type<T>(queue, call);
  const std::size_t n = common_size<T>(call, {{"x", &x}});
  if (n == 0) return Event();
  const algo::Staged<T> sx(queue, x, algo::Use::write);
  return sx.finish(
      queue, launch_per_element(queue, elementwise_kernel<T>(queue, "xgpu_ew_fill", call), n, value,
                                sx.get()));
}

template <class T>
Event elementwise_copy(Queue& queue, const Buffer<T>& src, const Buffer<T>& dst) {
  const char* call = "xgpu::copy";
  algo::require_type<T>(queue, call);
  const std::size_t n = common_size<T>(call, {{"src", &src}, {"dst", &dst}});
  // Copying a buffer onto itself changes nothing; Queue::copy refuses other overlaps. It takes
  // views wherever they start: nothing to stage.
  if (n == 0 || ext::same_buffer(src, dst)) return Event();
  return queue.copy(src, dst, n);
}

template <class T>
Event elementwise_axpy(Queue& queue, scalar_t<T> a, const Buffer<T>& x, const Buffer<T>& y) {
  const char* call = "xgpu::axpy";
  algo::require_type<T>(queue, call);
  const std::size_t n = common_size<T>(call, {{"x", &x}, {"y", &y}});
  if (n == 0) return Event();
  algo::require_same_or_apart(call, "x", x, "y", y);
  const algo::Staged<T> sx(queue, x, algo::Use::read), sy(queue, y, algo::Use::read_write);
  return sy.finish(
      queue, launch_per_element(
                 queue, elementwise_kernel<T>(queue, "xgpu_ew_axpy", call, half_scalar(float(a))),
                 n, a, sx.get(), sy.get()));
}

template <class T>
Event elementwise_scale(Queue& queue, scalar_t<T> a, const Buffer<T>& x) {
  const char* call = "xgpu::scale";
  algo::require_type<T>(queue, call);
  const std::size_t n = common_size<T>(call, {{"x", &x}});
  if (n == 0) return Event();
  const algo::Staged<T> sx(queue, x, algo::Use::read_write);
  return sx.finish(
      queue, launch_per_element(
                 queue, elementwise_kernel<T>(queue, "xgpu_ew_scale", call, half_scalar(float(a))),
                 n, a, sx.get()));
}

template <class T>
Event elementwise_binary(Queue& queue, ElementwiseOp op, const Buffer<T>& a, const Buffer<T>& b,
                         const Buffer<T>& out) {
  const OpInfo info = op_info(op);
  if (!is_binary(op)) algo::invalid(info.call, "is not an operation of two buffers");
  algo::require_type<T>(queue, info.call);
  const std::size_t n = common_size<T>(info.call, {{"a", &a}, {"b", &b}, {"out", &out}});
  if (n == 0) return Event();
  algo::require_same_or_apart(info.call, "a", a, "out", out);
  algo::require_same_or_apart(info.call, "b", b, "out", out);
  const algo::Staged<T> sa(queue, a, algo::Use::read), sb(queue, b, algo::Use::read);
  const algo::Staged<T> so(queue, out, algo::Use::write);
  return so.finish(
      queue, launch_per_element(queue, elementwise_kernel<T>(queue, info.kernel, info.call), n,
                                sa.get(), sb.get(), so.get()));
}

template <class T>
Event elementwise_unary(Queue& queue, ElementwiseOp op, const Buffer<T>& in, const Buffer<T>& out) {
  const OpInfo info = op_info(op);
  if (is_binary(op)) algo::invalid(info.call, "is not an operation of one buffer");
  // The public templates refuse integer math at compile time; this guards direct callers.
  if (is_math(op) && !is_floating_algorithm_type_v<T>)
    throw Error(Errc::unsupported,
                std::string(info.call) + " is defined for float, double, half and bfloat16, not " +
                    Element<T>::name,
                info.call);
  algo::require_type<T>(queue, info.call);
  const std::size_t n = common_size<T>(info.call, {{"in", &in}, {"out", &out}});
  if (n == 0) return Event();
  algo::require_same_or_apart(info.call, "in", in, "out", out);
  const algo::Staged<T> si(queue, in, algo::Use::read), so(queue, out, algo::Use::write);
  return so.finish(
      queue, launch_per_element(queue, elementwise_kernel<T>(queue, info.kernel, info.call), n,
                                si.get(), so.get()));
}

#define XGPU_INSTANTIATE_ELEMENTWISE(T)                                                           \
  template Event elementwise_fill<T>(Queue&, const Buffer<T>&, scalar_t<T>);                      \
  template Event elementwise_copy<T>(Queue&, const Buffer<T>&, const Buffer<T>&);                 \
  template Event elementwise_axpy<T>(Queue&, scalar_t<T>, const Buffer<T>&, const Buffer<T>&);    \
  template Event elementwise_scale<T>(Queue&, scalar_t<T>, const Buffer<T>&);                     \
  template Event elementwise_binary<T>(Queue&, ElementwiseOp, const Buffer<T>&, const Buffer<T>&, \
                                       const Buffer<T>&);                                         \
  template Event elementwise_unary<T>(Queue&, ElementwiseOp, const Buffer<T>&, const Buffer<T>&);

XGPU_INSTANTIATE_ELEMENTWISE(float)
XGPU_INSTANTIATE_ELEMENTWISE(double)
XGPU_INSTANTIATE_ELEMENTWISE(std::int32_t)
XGPU_INSTANTIATE_ELEMENTWISE(std::uint32_t)
XGPU_INSTANTIATE_ELEMENTWISE(half)
XGPU_INSTANTIATE_ELEMENTWISE(bfloat16)

}  // namespace xgpu::detail
