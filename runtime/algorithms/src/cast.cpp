// xgpu::cast: one launch of kernels/cast.cl, built once per context, pair of types and
// vector width.
#include <xgpu/algorithms/cast.hpp>
#include <xgpu/extension.hpp>

#include "cast_launch.hpp"
#include "support.hpp"

namespace xgpu::detail {
namespace {

constexpr const char* kCall = "xgpu::cast";

/// The name cast.cl's options give the type (-DXGPU_FROM_<name>, -DXGPU_TO_<name>).
template <class T>
constexpr const char* cast_name() {
  if constexpr (std::is_same_v<T, float>) return "FLOAT";
  if constexpr (std::is_same_v<T, double>) return "DOUBLE";
  if constexpr (std::is_same_v<T, half>) return "HALF";
  if constexpr (std::is_same_v<T, bfloat16>) return "BFLOAT16";
}

/// Elements per work-item, one vector: 16 on CPUs (a 64-byte line of floats, one SIMD
/// register or two), 4 elsewhere (16-byte loads of floats, which a warp's items coalesce).
/// The element-wise operations' layout rule and override decide.
std::size_t vector_width(const Queue& queue) {
  return algo::layout_for(queue.device().info(), common::Setting::elementwise_shape, kCall) ==
                 algo::Layout::cpu
             ? 16
             : 4;
}

}  // namespace

template <class From, class To>
Event algo::launch_cast(Queue& queue, const Buffer<From>& src, const Buffer<To>& dst,
                        std::size_t count) {
  const std::size_t width = vector_width(queue);
  const Kernel kernel =
      algo::library_kernel(queue, "cast.cl", "xgpu_cast",
                           std::string("-DXGPU_FROM_") + cast_name<From>() + " -DXGPU_TO_" +
                               cast_name<To>() + " -DXGPU_CAST_W=" + std::to_string(width));
  const std::size_t group = algo::work_group_size(kernel);
  const std::size_t items = algo::ceil_div(count, width);
  return queue.launch(kernel, Range{algo::round_up(items, group)}, Range{group},
                      static_cast<unsigned>(count), src, dst);
}

template <class From, class To>
Event cast_impl(Queue& queue, const Buffer<From>& src, const Buffer<To>& dst) {
  algo::require_type<From>(queue, kCall);
  algo::require_type<To>(queue, kCall);
  const std::size_t n = src.size();
  if (dst.size() != n) algo::size_mismatch(kCall, "buffer dst", dst.size(), n);
  algo::require_uint_size(n, kCall);
  if (n == 0) return Event();
  if constexpr (std::is_same_v<From, To>) {
    // Copying a buffer onto itself changes nothing; OpenCL would refuse the overlap.
    if (ext::same_buffer(src, dst)) return Event();
    return queue.copy(src, dst, n);
  } else {
    if (ext::overlap(src, dst))
      algo::invalid(kCall,
                    "dst is src's memory; a cast between types of different sizes cannot be "
                    "done in place (allocate dst apart)");
    // Views no kernel takes are staged, as in every operation of the library.
    const algo::Staged<From> staged_src(queue, src, algo::Use::read);
    const algo::Staged<To> staged_dst(queue, dst, algo::Use::write);
    return staged_dst.finish(queue,
                             algo::launch_cast(queue, staged_src.get(), staged_dst.get(), n));
  }
}

#define XGPU_INSTANTIATE_CAST_TO(From, To)                                                   \
  template Event cast_impl<From, To>(Queue&, const Buffer<From>&, const Buffer<To>&);        \
  template Event algo::launch_cast<From, To>(Queue&, const Buffer<From>&, const Buffer<To>&, \
                                             std::size_t);
#define XGPU_INSTANTIATE_CAST(From)      \
  XGPU_INSTANTIATE_CAST_TO(From, float)  \
  XGPU_INSTANTIATE_CAST_TO(From, double) \
  XGPU_INSTANTIATE_CAST_TO(From, half)   \
  XGPU_INSTANTIATE_CAST_TO(From, bfloat16)
XGPU_INSTANTIATE_CAST(float)
XGPU_INSTANTIATE_CAST(double)
XGPU_INSTANTIATE_CAST(half)
XGPU_INSTANTIATE_CAST(bfloat16)
#undef XGPU_INSTANTIATE_CAST
#undef XGPU_INSTANTIATE_CAST_TO

}  // namespace xgpu::detail
