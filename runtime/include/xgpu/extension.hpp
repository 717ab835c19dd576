// xgpu::ext: the one header a library built on xgpu (such as libxgpu-algorithms) uses for
// what the public API does not give: a per-context slot for the library's own state, the
// backend's vendor GEMM, host views of buffers, the device traits every caller decides by,
// untyped views of typed buffers, and logging through xgpu's loggers.
//
// Applications do not need it. Whatever it offers is implemented in libxgpu (extension.cpp,
// util/device_traits.cpp), so that an extension library never includes the core's private
// headers nor calls a backend module itself.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <xgpu/buffer.hpp>
#include <xgpu/context.hpp>
#include <xgpu/device.hpp>
#include <xgpu/event.hpp>
#include <xgpu/export.hpp>
#include <xgpu/half.hpp>
#include <xgpu/program.hpp>
#include <xgpu/queue.hpp>

namespace xgpu::ext {

// ---- Per-context state ----

/// The object a library keeps in `context` under `key` (name it after the library:
/// "xgpu.algorithms.kernels"), made by `make` the first time it is asked for and kept until
/// the context's last handle goes. Thread-safe: `make` runs once per key and context, under
/// the context's slot lock, so it must be quick and must not ask for a slot itself (build
/// kernels later, outside it).
XGPU_API std::shared_ptr<void> context_slot(const Context& context, const std::string& key,
                                            const std::function<std::shared_ptr<void>()>& make);
/// Typed form: the State of `key`, default-constructed on first use.
template <class State>
std::shared_ptr<State> context_slot(const Context& context, const std::string& key) {
  return std::static_pointer_cast<State>(context_slot(
      context, key, [] { return std::static_pointer_cast<void>(std::make_shared<State>()); }));
}

/// The same address for every copy of `context` and a different one for any other context
/// alive: a key for maps by context. Not for dereferencing.
XGPU_API const void* context_key(const Context& context);

// ---- Device traits: the one rule for each question, used by every caller ----

/// A simulator of device code (Oclgrind): it is neither a CPU nor a GPU for the choice of
/// code paths, and gets the GPU paths (they are the ones worth checking).
XGPU_API bool is_simulator(const DeviceInfo& info);
/// A CPU device: the CPU type, no GPU type, not a simulator.
XGPU_API bool is_cpu(const DeviceInfo& info);
/// A GPU device: the GPU type, not a simulator.
XGPU_API bool is_gpu(const DeviceInfo& info);
/// The host reaches the device's memory without copy: a CPU device or host-unified memory.
XGPU_API bool shares_host_memory(const DeviceInfo& info);
/// Bytes of local memory a work-group of `kernel` may still take on `device`: the device's
/// local memory less what the kernel declares itself; 0 when it declares all of it. A
/// device that reports no local memory (0) limits nothing: the largest uint64.
XGPU_API std::uint64_t free_local_memory(const Kernel& kernel, const DeviceInfo& device);

// ---- Untyped views of typed buffers ----

/// Whether two buffers are the same memory: the same bytes of one allocation (a buffer and a
/// view of all of it, two views of one range). False when either is empty.
XGPU_API bool same_buffer(const UntypedBuffer& x, const UntypedBuffer& y);
template <class T, class U>
bool same_buffer(const Buffer<T>& x, const Buffer<U>& y) {
  return same_buffer(x.untyped(), y.untyped());
}
/// Whether two buffers share any byte (views of one allocation that overlap): aliasing checks.
XGPU_API bool overlap(const UntypedBuffer& x, const UntypedBuffer& y);
template <class T, class U>
bool overlap(const Buffer<T>& x, const Buffer<U>& y) {
  return overlap(x.untyped(), y.untyped());
}
/// Whether a kernel can take `buffer` as an argument: any buffer but a view that does not start
/// on the device's base-address alignment (see Buffer::view). The algorithms library stages
/// such a view through a scratch buffer.
XGPU_API bool kernel_can_take(const UntypedBuffer& buffer) noexcept;
template <class T>
bool kernel_can_take(const Buffer<T>& buffer) noexcept {
  return kernel_can_take(buffer.untyped());
}
/// Whether `buffer` was allocated from `context` (false for an empty buffer).
XGPU_API bool belongs_to(const UntypedBuffer& buffer, const Context& context);
/// The backend object that holds the buffer's memory, as a key: the same for a buffer and its
/// views that are no sub-buffers of their own, nullptr for an empty buffer. For comparisons and
/// maps only (interop::native gives the object itself).
XGPU_API const void* backing_object(const UntypedBuffer& buffer) noexcept;
template <class T>
bool belongs_to(const Buffer<T>& buffer, const Context& context) {
  return belongs_to(buffer.untyped(), context);
}
/// The same memory seen as elements of U (kernels that move raw bits). sizeof(U) must
/// divide the buffer's bytes, which holds when sizeof(U) divides sizeof(T).
template <class U, class T>
Buffer<U> reinterpret(const Buffer<T>& buffer) {
  static_assert(sizeof(T) % sizeof(U) == 0, "xgpu::ext::reinterpret needs sizeof(U) | sizeof(T)");
  return typed<U>(buffer.untyped());
}

// ---- Host views of buffers ----

/// What the host does with mapped memory (bits; the backend ABI's XGPU_MAP_* values).
enum HostAccess : std::uint32_t {
  host_read = 1u,
  host_write = 2u,
  host_write_invalidate = 4u,  ///< written only: the old contents need not reach the host
};
/// Enqueues the map of the first `bytes` of `buffer` for `access` (HostAccess bits); the
/// pointer set in `pointer` is valid once the returned Event completes, until unmap_async.
/// Unlike Queue::map, it does not wait, so that several maps cost one round trip.
XGPU_API Event map_async(Queue& queue, const UntypedBuffer& buffer, std::size_t bytes,
                         std::uint32_t access, void*& pointer);
template <class T>
Event map_async(Queue& queue, const Buffer<T>& buffer, std::size_t count, std::uint32_t access,
                T*& pointer) {
  void* raw = nullptr;
  Event event = map_async(queue, buffer.untyped(), count * sizeof(T), access, raw);
  pointer = static_cast<T*>(raw);
  return event;
}
/// Enqueues the unmap of a pointer map_async gave; the device sees the host's writes once
/// the returned Event completes.
XGPU_API Event unmap_async(Queue& queue, const UntypedBuffer& buffer, void* pointer);
template <class T>
Event unmap_async(Queue& queue, const Buffer<T>& buffer, const T* pointer) {
  return unmap_async(queue, buffer.untyped(), const_cast<T*>(pointer));
}

// ---- The backend's vendor GEMM (the blas_gemm member of the module ABI) ----

enum class Precision { f16, f32, f64 };
template <class T>
constexpr Precision precision_of() {
  if constexpr (std::is_same_v<T, float>) return Precision::f32;
  if constexpr (std::is_same_v<T, double>) return Precision::f64;
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double> || std::is_same_v<T, half>,
                "the vendor GEMM takes float, double or half");
  return Precision::f16;
}

/// One vendor GEMM on row-major matrices: C = alpha * op(A) * op(B) + beta * C.
struct VendorGemm {
  Precision precision = Precision::f32;
  bool transpose_a = false, transpose_b = false;
  std::size_t m = 0, n = 0, k = 0;
  double alpha = 1, beta = 0;
  std::size_t lda = 0, ldb = 0, ldc = 0;
};

/// "" when the queue's backend can run a vendor GEMM, else why not (no blas_gemm in its
/// module, or its library would not open). Asked of each module once, then remembered.
XGPU_API std::string vendor_gemm_missing(const Queue& queue);
/// Enqueues the vendor GEMM. Errc::unsupported when the backend has none or refuses this
/// call (with its reason); other failures as the backend reports them.
XGPU_API Event vendor_gemm(Queue& queue, const VendorGemm& call, const UntypedBuffer& a,
                           const UntypedBuffer& b, const UntypedBuffer& c);
template <class T>
Event vendor_gemm(Queue& queue, const VendorGemm& call, const Buffer<T>& a, const Buffer<T>& b,
                  const Buffer<T>& c) {
  return vendor_gemm(queue, call, a.untyped(), b.untyped(), c.untyped());
}

// ---- Logging ----

enum class LogLevel { debug, info, warn, error };
/// Logs through xgpu's logger "xgpu.<logger>" (see <xgpu/log.hpp> for levels).
XGPU_API void log(LogLevel level, const std::string& logger, const std::string& message);

}  // namespace xgpu::ext
