// What the parts of the extension share: the element types of xgpu.Array (DType) and the typed
// device buffer behind each array, streams, and the one context the package keeps per device.
// Only xgpu's public API (and <xgpu/extension.hpp>) is used: never its detail namespace.
#pragma once

#include <nanobind/nanobind.h>

#include <cstdint>
#include <memory>
#include <string>
#include <variant>
#include <xgpu/xgpu.hpp>

namespace xgpu_python {

namespace nb = nanobind;

/// Element types, numbered as in xgpu/_dtypes.py. bool is stored as uint8 (OpenCL has no bool
/// in global memory), float16 as xgpu::half, bfloat16 (last: the codes before it stay) as
/// xgpu::bfloat16.
enum class DType : int {
  bool_,
  int8,
  uint8,
  int16,
  uint16,
  int32,
  uint32,
  int64,
  uint64,
  float16,
  float32,
  float64,
  bfloat16
};
inline constexpr int kDTypeCount = 13;

DType dtype_from_int(int code);
/// The half or bfloat16 nearest to `value` (ties to even), rounded once, as NumPy, ml_dtypes and
/// xgpu::cast round a float64; to_half((float)value) would round twice.
xgpu::half half_of(double value) noexcept;
xgpu::bfloat16 bfloat16_of(double value) noexcept;
const char* dtype_name(DType dtype);
std::size_t element_size(DType dtype);

template <class T>
struct Tag {
  using type = T;
};

/// Calls f(Tag<T>{}) with T the storage type of `dtype`.
template <class F>
decltype(auto) with_storage(DType dtype, F&& f) {
  switch (dtype) {
    case DType::bool_:
    case DType::uint8:
      return f(Tag<std::uint8_t>{});
    case DType::int8:
      return f(Tag<std::int8_t>{});
    case DType::int16:
      return f(Tag<std::int16_t>{});
    case DType::uint16:
      return f(Tag<std::uint16_t>{});
    case DType::int32:
      return f(Tag<std::int32_t>{});
    case DType::uint32:
      return f(Tag<std::uint32_t>{});
    case DType::int64:
      return f(Tag<std::int64_t>{});
    case DType::uint64:
      return f(Tag<std::uint64_t>{});
    case DType::float16:
      return f(Tag<xgpu::half>{});
    case DType::float32:
      return f(Tag<float>{});
    case DType::bfloat16:
      return f(Tag<xgpu::bfloat16>{});
    case DType::float64:
      break;
  }
  return f(Tag<double>{});
}

using AnyBuffer =
    std::variant<xgpu::Buffer<std::int8_t>, xgpu::Buffer<std::uint8_t>, xgpu::Buffer<std::int16_t>,
                 xgpu::Buffer<std::uint16_t>, xgpu::Buffer<std::int32_t>,
                 xgpu::Buffer<std::uint32_t>, xgpu::Buffer<std::int64_t>,
                 xgpu::Buffer<std::uint64_t>, xgpu::Buffer<xgpu::half>, xgpu::Buffer<float>,
                 xgpu::Buffer<double>, xgpu::Buffer<xgpu::bfloat16>>;

/// An in-order queue of one device (xgpu.Stream), shared as DeviceBuffer is. Streams of the
/// package's own contexts have context id = device index; those of a DeviceGroup's contexts get ids
/// of their own, so that an array is never used on a stream of another context.
class Stream : public std::enable_shared_from_this<Stream> {
 public:
  Stream(xgpu::Queue queue, std::size_t device_index, std::uint64_t context_id)
      : queue_(std::move(queue)), device_index_(device_index), context_id_(context_id) {}
  xgpu::Queue& queue() noexcept { return queue_; }
  const xgpu::Context& context() const noexcept { return queue_.context(); }
  std::size_t device_index() const noexcept { return device_index_; }
  std::uint64_t context_id() const noexcept { return context_id_; }

 private:
  xgpu::Queue queue_;
  std::size_t device_index_;
  std::uint64_t context_id_;
};
using StreamPtr = std::shared_ptr<Stream>;

/// A context id no package context has (DeviceGroup members).
std::uint64_t new_context_id();

/// The package's context on device `index` of xgpu::devices() and its default stream, made at
/// first use. Throws IndexError (nb::index_error) for an index out of range.
struct DeviceState {
  xgpu::Device device;
  xgpu::Context context;
  StreamPtr default_stream;
};
DeviceState& device_state(std::size_t index);
/// Device `index` of xgpu::devices(), without making a context; IndexError when out of range.
xgpu::Device device_at(std::size_t index);
/// The contexts made so far (for empty_cache over all of them).
std::vector<DeviceState*> made_device_states();

/// A device named by Python: None (the current one), an index, a selector string, or an object
/// with an `index` (xgpu.Device). IndexError or xgpu.Error when there is no such device.
std::size_t device_index_of(nb::handle device);

/// The calling thread's current device: set_device's, else the default device (XGPU_DEVICE, else
/// xgpu::select()'s choice).
std::size_t current_device();
void set_current_device(std::size_t index);
/// The calling thread's current stream on `device` (its default stream unless set).
StreamPtr current_stream(std::size_t device);
void set_current_stream(std::size_t device, StreamPtr stream);

/// The device memory behind an xgpu.Array: a typed buffer and the stream it was made on.
/// Shared with enable_shared_from_this, so that nanobind hands C++ the object's own shared_ptr
/// (no reference to the Python object is kept from C++: none outlives the interpreter).
struct DeviceBuffer : std::enable_shared_from_this<DeviceBuffer> {
  AnyBuffer buffer;
  DType dtype;
  StreamPtr home;

  std::size_t size() const {
    return std::visit([](const auto& b) { return b.size(); }, buffer);
  }
  std::size_t device_index() const { return home->device_index(); }
};
using BufferPtr = std::shared_ptr<DeviceBuffer>;

/// `count` elements of `dtype` allocated on `stream`'s context.
BufferPtr allocate(const StreamPtr& stream, DType dtype, std::size_t count);

/// The stream an operation on `buffer` runs on: `given` when not None, else the current stream
/// of the buffer's device when it shares the buffer's context, else the buffer's own stream.
StreamPtr stream_for(const DeviceBuffer& buffer, const StreamPtr& given);

/// Raises NotImplementedError with `message`.
[[noreturn]] void not_implemented(const std::string& message);
/// Sets the Python error for the exception being handled (inside a catch block): the Python
/// error it carries, a TypeError/ValueError/IndexError/BufferError of nanobind's, xgpu.Error for
/// an xgpu::Error, else RuntimeError. For functions CPython calls without nanobind (a slot).
void set_python_error() noexcept;

void bind_devices(nb::module_& m);
void bind_streams(nb::module_& m);
void bind_buffers(nb::module_& m);
void bind_algorithms(nb::module_& m);
void bind_kernels(nb::module_& m);
void bind_dlpack(nb::module_& m);
void bind_group(nb::module_& m);
void bind_misc(nb::module_& m);
void bind_amp(nb::module_& m);
void bind_feeder(nb::module_& m);

}  // namespace xgpu_python
