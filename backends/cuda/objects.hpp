// What the module's ABI handles point to. CUDA counts no references on streams, buffers or
// events, so each object carries its own count (retain/release) and holds references on what
// it needs alive: a queue its context, a sub-buffer its parent, a kernel its program.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "cuda_driver_api.hpp"
#include "registry.hpp"

namespace xgpu::backend_cuda {

/// The reference count every object kind shares; created with one reference (the caller's).
struct Object {
  std::atomic<uint32_t> references{1};
  Object() = default;
  Object(const Object&) = delete;
  Object& operator=(const Object&) = delete;
  /// Destructors release driver objects; a failure there is logged, never thrown.
  virtual ~Object() = default;
};

void retain_object(Object* object) noexcept;
void release_object(Object* object) noexcept;

/// One counted reference, released at destruction.
template <class T>
class Ref {
 public:
  Ref() = default;
  /// Takes a new reference on `object`.
  static Ref retain(T* object) {
    if (object != nullptr) retain_object(object);
    return Ref(object);
  }
  /// Takes over the reference the caller holds.
  static Ref adopt(T* object) { return Ref(object); }
  Ref(const Ref& other) : Ref(retain(other.object_)) {}
  Ref(Ref&& other) noexcept : object_(std::exchange(other.object_, nullptr)) {}
  Ref& operator=(Ref other) noexcept {
    std::swap(object_, other.object_);
    return *this;
  }
  ~Ref() {
    if (object_ != nullptr) release_object(object_);
  }
  T* get() const { return object_; }
  T* operator->() const { return object_; }
  T& operator*() const { return *object_; }
  /// Gives the reference to the caller (an ABI out-parameter).
  T* release() { return std::exchange(object_, nullptr); }

 private:
  explicit Ref(T* object) : object_(object) {}
  T* object_ = nullptr;
};

/// A device's primary context (the one the CUDA runtime and PyTorch share), retained.
struct Context : Object {
  DeviceRecord* device = nullptr;
  CUcontext context = nullptr;
  /// cuBLAS, made on first use by blas_gemm.cpp and destroyed with the context.
  std::mutex blas_mutex;
  void* blas_handle = nullptr;
  void (*blas_destroy)(void* handle) = nullptr;
  ~Context() override;
};

/// Makes a context current on this thread for the scope, as every driver call needs.
class ScopedContext {
 public:
  explicit ScopedContext(const Context& context);
  ~ScopedContext();
  ScopedContext(const ScopedContext&) = delete;
  ScopedContext& operator=(const ScopedContext&) = delete;
};

/// A queue is a non-blocking stream (no implicit order with the legacy default stream).
struct Queue : Object {
  Ref<Context> context;
  CUstream stream = nullptr;
  bool profiling = false;
  /// Profiling times are this event's host time plus the driver's elapsed time since it.
  CUevent epoch = nullptr;
  uint64_t epoch_host_ns = 0;
  ~Queue() override;
};

struct Mapping {
  size_t offset = 0;
  size_t size = 0;
  uint32_t flags = 0;
};

/// cuMemAlloc'd memory, or a range of a parent's (a sub-buffer).
struct Buffer : Object {
  Ref<Context> context;
  Ref<Buffer> parent;  ///< null for memory the buffer owns
  CUdeviceptr pointer = 0;
  size_t size = 0;
  uint32_t flags = 0;
  std::mutex map_mutex;
  std::map<void*, Mapping> maps;  ///< pinned staging memory -> what it shows
  ~Buffer() override;
};

/// A command's completion, and its times where the queue profiles.
struct Event : Object {
  Ref<Context> context;
  Ref<Queue> queue;
  CUevent start = nullptr;  ///< profiling queues only
  CUevent end = nullptr;
  uint64_t queued_host_ns = 0;
  ~Event() override;
};

/// One kernel parameter as the module passes it (see kernel_entries.cpp).
struct ParamInfo {
  std::string name;
  std::string type;
  uint32_t address_space = 0;  ///< XGPU_ADDRESS_*
  bool is_pointer = false;
  size_t value_size = 0;  ///< by-value bytes; 0 when the source does not say
};

struct KernelInfo {
  std::string name;
  std::vector<ParamInfo> params;
};

struct Program : Object {
  Ref<Context> context;
  std::string source;
  std::string build_log;
  std::string ptx;
  std::vector<KernelInfo> kernels;
  bool from_binary = false;  ///< PTX from the kernel cache: build only loads it
  std::mutex build_mutex;
  CUmodule module = nullptr;
  ~Program() override;
};

struct Kernel : Object {
  Ref<Program> program;
  const KernelInfo* info = nullptr;
  CUfunction function = nullptr;
  /// Argument values as set: bytes for values and buffers' device pointers, sizes for locals.
  std::vector<std::vector<unsigned char>> values;
  std::vector<Ref<Buffer>> buffers;
  std::vector<size_t> local_sizes;
  std::vector<bool> set;
};

/// A steady host clock in nanoseconds, the timeline of every profiling time.
uint64_t host_now_ns();

}  // namespace xgpu::backend_cuda
