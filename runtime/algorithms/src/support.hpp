// What every operation of the algorithms library shares: its kernels, built once per
// context through the kernel cache; element types and their build options; work-group
// sizes taken from the kernel and the device; the checks that turn bad input into errors.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <xgpu/bfloat16.hpp>
#include <xgpu/common/settings.hpp>
#include <xgpu/error.hpp>
#include <xgpu/extension.hpp>
#include <xgpu/half.hpp>
#include <xgpu/queue.hpp>

namespace xgpu::detail::algo {

/// An element type of the library and its OpenCL C spelling. `load`/`store` name the macros
/// kernels use, so one kernel text serves half storage (vload_half) and plain types.
template <class T>
struct Element;
// One row per type: its OpenCL C name, the type kernels hold it in, the macro they test.
#define XGPU_ALGO_ELEMENT(T, NAME, CL_TYPE, MACRO)                                 \
  template <>                                                                      \
  struct Element<T> {                                                              \
    static constexpr const char* name = NAME;                                      \
    static constexpr const char* options = "-DXGPU_T=" CL_TYPE " -DXGPU_T_" MACRO; \
  };
XGPU_ALGO_ELEMENT(float, "float", "float", "FLOAT")
XGPU_ALGO_ELEMENT(double, "double", "double", "DOUBLE")
XGPU_ALGO_ELEMENT(std::int32_t, "int", "int", "INT")
XGPU_ALGO_ELEMENT(std::uint32_t, "uint", "uint", "UINT")
XGPU_ALGO_ELEMENT(half, "half", "half", "HALF")
// OpenCL C has no bfloat16: kernels hold its bits as ushort (kernels/xgpu_bfloat16.cl).
XGPU_ALGO_ELEMENT(bfloat16, "bfloat16", "ushort", "BFLOAT16")
#undef XGPU_ALGO_ELEMENT

/// A kernel of an embedded kernels/ file, built for the queue's device with `options` (and
/// through the kernel cache) the first time it is asked for in this context, then reused.
Kernel library_kernel(const Queue& queue, const char* file, const char* kernel,
                      const std::string& options = {});

/// library_kernel() built for element type T alone (Element<T>::options).
template <class T>
Kernel typed_kernel(const Queue& queue, const char* file, const char* kernel) {
  return library_kernel(queue, file, kernel, Element<T>::options);
}

/// How a library kernel lays its work out. `cpu`: each work-item walks one contiguous chunk,
/// which a CPU's caches and prefetchers like. `gpu`: striped, consecutive work-items touch
/// consecutive addresses on every global load and store, so a warp's access coalesces.
enum class Layout { cpu, gpu };

/// The one rule for every operation: the CPU layout for CPU devices, the GPU layout for the
/// others, unless the operation's setting (XGPU_GEMM_SHAPE, XGPU_SORT_SHAPE...) says "cpu" or
/// "gpu"; any other value is an invalid_argument error naming `call`.
Layout layout_for(const DeviceInfo& info, common::Setting setting, const char* call);

/// A word setting's value (XGPU_GEMM, the shapes), or "" while unset or empty; a word it does
/// not allow is an invalid_argument error from `call` naming the allowed words and the nearest.
std::string word_setting(common::Setting setting, const char* call);

/// A 1-D work-group size for `kernel`: a multiple of its preferred multiple, at most
/// `at_most` and what the kernel allows, never 0.
std::size_t work_group_size(const Kernel& kernel, std::size_t at_most = 256);
/// The largest power of two <= work_group_size(kernel, at_most), for tree reductions.
std::size_t power_of_two_work_group(const Kernel& kernel, std::size_t at_most = 256);

inline std::size_t round_up(std::size_t n, std::size_t multiple) {
  return (n + multiple - 1) / multiple * multiple;
}
inline std::size_t ceil_div(std::size_t n, std::size_t d) { return (n + d - 1) / d; }

/// Throws unsupported ("<call> needs double precision (cl_khr_fp64); <device> lacks it")
/// when T is double and the queue's device has no fp64.
template <class T>
void require_type(const Queue& queue, const char* call);
void require_fp64(const Queue& queue, const char* call);

/// Throws invalid_argument: "<call>: <what> has <a> elements but <b> were expected".
[[noreturn]] void size_mismatch(const char* call, const std::string& what, std::size_t got,
                                std::size_t expected);
/// Throws invalid_argument naming the call: bad input other than sizes.
[[noreturn]] void invalid(const char* call, const std::string& message);
/// Throws invalid_handle when the queue is empty.
void require_queue(const Queue& queue, const char* call);
/// The most elements a library call takes. Kernels index with 32-bit uints and add a tile
/// to an index (k0 + TK, first + 8): 2^31 leaves that headroom, so nothing wraps.
inline constexpr std::size_t kMaxElements = (std::size_t{1} << 31) - 1;
/// Throws invalid_argument for element counts above kMaxElements.
void require_uint_size(std::size_t count, const char* call);
/// rows * cols, checked: invalid_argument when the product overflows or exceeds kMaxElements.
std::size_t matrix_elements(std::size_t rows, std::size_t cols, const char* call);
/// For a rows x cols matrix read from `in` and written to `out`: checks T, the product and
/// both buffers' sizes, and returns the element count.
template <class T>
std::size_t checked_matrix_io(const Queue& queue, const Buffer<T>& in, const Buffer<T>& out,
                              std::size_t rows, std::size_t cols, const char* call) {
  require_type<T>(queue, call);
  const std::size_t count = matrix_elements(rows, cols, call);
  if (in.size() < count) size_mismatch(call, "buffer in", in.size(), count);
  if (out.size() < count) size_mismatch(call, "buffer out", out.size(), count);
  return count;
}

/// Throws invalid_argument when x and y share bytes without being the same range (views of one
/// buffer that overlap in part): an operation that allows its output over an input means the
/// same elements, and none defines the result of a shifted overlap.
void require_same_or_apart(const char* call, const char* x_name, const UntypedBuffer& x,
                           const char* y_name, const UntypedBuffer& y);
template <class T, class U>
void require_same_or_apart(const char* call, const char* x_name, const Buffer<T>& x,
                           const char* y_name, const Buffer<U>& y) {
  require_same_or_apart(call, x_name, x.untyped(), y_name, y.untyped());
}

/// How an operation uses a buffer argument, for Staged.
enum class Use { read, write, read_write };

/// A buffer argument as the library's kernels take it. A kernel cannot take a view that starts
/// off the device's base-address alignment (Buffer::view): such a view is staged through a
/// scratch buffer of its size, copied in when the operation reads it and back by finish() when
/// it writes it. Any other buffer is used as it is, at no cost. Checks on the caller's buffers
/// (sizes, aliasing) come before staging, so that errors name what the caller passed.
template <class T>
class Staged {
 public:
  Staged(Queue& queue, const Buffer<T>& buffer, Use use) : original_(buffer), use_(use) {
    if (ext::kernel_can_take(buffer)) {
      buffer_ = buffer;
      return;
    }
    buffer_ = queue.context().alloc<T>(buffer.size());
    staged_ = true;
    if (use != Use::write) queue.copy(buffer, buffer_);
  }
  const Buffer<T>& get() const noexcept { return buffer_; }
  /// After the operation's last command (`last`): copies a staged buffer that the operation
  /// wrote back to the caller's view, and returns the Event of the last command enqueued.
  Event finish(Queue& queue, Event last) const {
    if (!staged_ || use_ == Use::read) return last;
    return queue.copy(buffer_, original_);
  }

 private:
  Buffer<T> original_, buffer_;
  Use use_;
  bool staged_ = false;
};

template <class T>
void require_type(const Queue& queue, const char* call) {
  require_queue(queue, call);
  if constexpr (std::is_same_v<T, double>) require_fp64(queue, call);
}

}  // namespace xgpu::detail::algo
