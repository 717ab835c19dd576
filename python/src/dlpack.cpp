// DLPack and host views. An array exports its device memory as a DLPack capsule: kDLCUDA with
// the device pointer on the cuda module, kDLOpenCL (the cl_mem and the byte offset) on opencl.
// A host view (_xgpu.map, behind Array.map() and __dlpack__(dl_device=(kDLCPU, 0))) is the
// buffer's own memory mapped where the device shares host memory (PoCL: no copy), elsewhere a
// copy read when it opens and written back when it closes.
#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/vector.h>

#include <cstring>
#include <optional>
#include <xgpu/cuda.hpp>
#include <xgpu/extension.hpp>
#include <xgpu/interop.hpp>

#include "common.hpp"

namespace xgpu_python {
namespace {

// ---- The DLPack ABI (dlpack.h, version 1.0), as the protocol defines it ----------------------

enum : std::int32_t { kDLCPU = 1, kDLCUDA = 2, kDLOpenCL = 4 };
enum : std::uint8_t { kDLInt = 0, kDLUInt = 1, kDLFloat = 2, kDLBfloat = 4, kDLBool = 6 };
constexpr std::uint64_t kFlagIsCopied = 1u << 1;

struct DLDevice {
  std::int32_t device_type;
  std::int32_t device_id;
};
struct DLDataType {
  std::uint8_t code;
  std::uint8_t bits;
  std::uint16_t lanes;
};
struct DLTensor {
  void* data;
  DLDevice device;
  std::int32_t ndim;
  DLDataType dtype;
  std::int64_t* shape;
  std::int64_t* strides;
  std::uint64_t byte_offset;
};
struct DLManagedTensor {
  DLTensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(DLManagedTensor*);
};
struct DLPackVersion {
  std::uint32_t major, minor;
};
struct DLManagedTensorVersioned {
  DLPackVersion version;
  void* manager_ctx;
  void (*deleter)(DLManagedTensorVersioned*);
  std::uint64_t flags;
  DLTensor dl_tensor;
};

DLDataType dl_dtype(DType dtype) {
  const auto bits = static_cast<std::uint8_t>(8 * element_size(dtype));
  switch (dtype) {
    case DType::bool_:
      return {kDLBool, 8, 1};
    case DType::int8:
    case DType::int16:
    case DType::int32:
    case DType::int64:
      return {kDLInt, bits, 1};
    case DType::float16:
    case DType::float32:
    case DType::float64:
      return {kDLFloat, bits, 1};
    case DType::bfloat16:
      return {kDLBfloat, 16, 1};
    default:
      return {kDLUInt, bits, 1};
  }
}

// What a capsule's tensor owns: the buffer (its memory stays allocated) or the host view, and the
// shape. Both are C++ references: a capsule freed late in the interpreter's exit holds no
// Python object.
struct Export {
  BufferPtr buffer;
  std::shared_ptr<class HostView> view;
  std::vector<std::int64_t> shape;
};

template <class Managed>
void delete_managed(Managed* managed) {
  delete static_cast<Export*>(managed->manager_ctx);
  delete managed;
}

// The capsule's destructor: a capsule no consumer took still owns its tensor.
template <class Managed>
void capsule_destructor(PyObject* capsule) {
  const char* name = std::is_same_v<Managed, DLManagedTensor> ? "dltensor" : "dltensor_versioned";
  if (!PyCapsule_IsValid(capsule, name)) return;  // renamed "used_...": the consumer owns it
  auto* managed = static_cast<Managed*>(PyCapsule_GetPointer(capsule, name));
  if (managed && managed->deleter) managed->deleter(managed);
}

// The device memory of `buffer` as a capsule: where its first element is, on which device.
nb::object device_capsule(const BufferPtr& buffer, const std::vector<std::int64_t>& shape,
                          bool versioned) {
  const xgpu::Device device = buffer->home->context().device();
  auto* owned = new Export{buffer, nullptr, shape};
  DLTensor tensor{};
  tensor.ndim = static_cast<std::int32_t>(shape.size());
  tensor.shape = owned->shape.data();
  tensor.strides = nullptr;  // C-contiguous
  tensor.dtype = dl_dtype(buffer->dtype);
  try {
    std::size_t offset = 0;
    void* native = std::visit(
        [&](const auto& b) { return b.empty() ? nullptr : xgpu::interop::native_at(b, offset); },
        buffer->buffer);
    if (xgpu::interop::backend(device) == "cuda") {
      tensor.device = {kDLCUDA, static_cast<std::int32_t>(xgpu::cuda::device(device))};
      tensor.data = native ? static_cast<char*>(native) + offset : nullptr;
    } else {
      tensor.device = {kDLOpenCL, static_cast<std::int32_t>(buffer->device_index())};
      tensor.data = native;
      tensor.byte_offset = offset;
    }
  } catch (...) {
    delete owned;
    throw;
  }
  if (versioned) {
    auto* managed = new DLManagedTensorVersioned{{1, 0}, owned, &delete_managed, 0, tensor};
    return nb::steal(PyCapsule_New(managed, "dltensor_versioned",
                                   &capsule_destructor<DLManagedTensorVersioned>));
  }
  auto* managed = new DLManagedTensor{tensor, owned, &delete_managed};
  return nb::steal(PyCapsule_New(managed, "dltensor", &capsule_destructor<DLManagedTensor>));
}

// ---- Host views ----------------------------------------------------------------------------

using AnyMapping =
    std::variant<std::monostate, xgpu::Mapping<std::int8_t>, xgpu::Mapping<std::uint8_t>,
                 xgpu::Mapping<std::int16_t>, xgpu::Mapping<std::uint16_t>,
                 xgpu::Mapping<std::int32_t>, xgpu::Mapping<std::uint32_t>,
                 xgpu::Mapping<std::int64_t>, xgpu::Mapping<std::uint64_t>,
                 xgpu::Mapping<xgpu::half>, xgpu::Mapping<float>, xgpu::Mapping<double>,
                 xgpu::Mapping<xgpu::bfloat16>>;

/// The host's view of an array's elements, until close(). Zero-copy where the device shares
/// host memory: the buffer stays allocated while the view (or a NumPy array over it) lives, so
/// its memory never goes to another array meanwhile.
class HostView : public std::enable_shared_from_this<HostView> {
 public:
  HostView(BufferPtr buffer, StreamPtr stream, bool write_back, bool copy)
      : buffer_(std::move(buffer)), stream_(std::move(stream)), write_back_(write_back) {
    const xgpu::DeviceInfo& info = stream_->context().device().info();
    zero_copy_ = !copy && xgpu::ext::shares_host_memory(info);
    bytes_ = buffer_->size() * element_size(buffer_->dtype);
    if (bytes_ == 0) return;
    std::visit(
        [&](auto& typed) {
          using T = typename std::decay_t<decltype(typed)>::value_type;
          if (zero_copy_) {
            xgpu::Mapping<T> mapping = stream_->queue().map(typed);
            data_ = mapping.data();
            mapping_ = std::move(mapping);
          } else {
            copy_.resize(bytes_);
            stream_->queue().read(typed, reinterpret_cast<T*>(copy_.data()));
            data_ = copy_.data();
          }
        },
        buffer_->buffer);
  }
  HostView(const HostView&) = delete;
  HostView& operator=(const HostView&) = delete;
  ~HostView() {
    try {
      close();
    } catch (...) {  // a failed unmap has been logged by Mapping; nothing to raise from here
    }
  }

  /// Ends the view: unmaps (the device sees the host's writes), or writes the copy back.
  void close() {
    if (closed_) return;
    closed_ = true;
    if (!copy_.empty() && write_back_) {
      std::visit(
          [&](auto& typed) {
            using T = typename std::decay_t<decltype(typed)>::value_type;
            stream_->queue().write(typed, reinterpret_cast<const T*>(copy_.data()));
          },
          buffer_->buffer);
    }
    std::visit(
        [](auto& mapping) {
          if constexpr (!std::is_same_v<std::decay_t<decltype(mapping)>, std::monostate>)
            mapping.unmap();
        },
        mapping_);
  }

  void* data() const noexcept { return data_; }
  std::size_t bytes() const noexcept { return bytes_; }
  bool zero_copy() const noexcept { return zero_copy_; }
  bool closed() const noexcept { return closed_; }
  const BufferPtr& buffer() const noexcept { return buffer_; }

 private:
  BufferPtr buffer_;
  StreamPtr stream_;
  bool write_back_;
  bool zero_copy_ = false;
  bool closed_ = false;
  std::size_t bytes_ = 0;
  void* data_ = nullptr;
  AnyMapping mapping_;
  std::vector<unsigned char> copy_;
};

std::shared_ptr<HostView> open_view(const BufferPtr& buffer, bool write_back, bool copy,
                                    std::optional<StreamPtr> given) {
  StreamPtr stream = stream_for(*buffer, given ? *given : nullptr);
  nb::gil_scoped_release release;
  return std::make_shared<HostView>(buffer, stream, write_back, copy);
}

// A host view as a kDLCPU capsule; the view stays open until the consumer lets go. A copy is
// flagged as one.
nb::object host_capsule(const std::shared_ptr<HostView>& view,
                        const std::vector<std::int64_t>& shape, bool versioned) {
  auto* owned = new Export{nullptr, view, shape};
  DLTensor tensor{};
  tensor.data = view->data();
  tensor.device = {kDLCPU, 0};
  tensor.ndim = static_cast<std::int32_t>(shape.size());
  tensor.shape = owned->shape.data();
  tensor.dtype = dl_dtype(view->buffer()->dtype);
  if (versioned) {
    auto* managed = new DLManagedTensorVersioned{
        {1, 0}, owned, &delete_managed, view->zero_copy() ? 0 : kFlagIsCopied, tensor};
    return nb::steal(PyCapsule_New(managed, "dltensor_versioned",
                                   &capsule_destructor<DLManagedTensorVersioned>));
  }
  auto* managed = new DLManagedTensor{tensor, owned, &delete_managed};
  return nb::steal(PyCapsule_New(managed, "dltensor", &capsule_destructor<DLManagedTensor>));
}

}  // namespace

void bind_dlpack(nb::module_& m) {
  nb::class_<HostView>(m, "HostView", nb::is_weak_referenceable())
      .def_prop_ro("zero_copy", &HostView::zero_copy)
      .def_prop_ro("closed", &HostView::closed)
      .def_prop_ro("address",
                   [](const HostView& v) { return reinterpret_cast<std::uintptr_t>(v.data()); })
      .def_prop_ro("nbytes", &HostView::bytes)
      .def_prop_ro("buffer", &HostView::buffer)
      .def("close", &HostView::close, nb::call_guard<nb::gil_scoped_release>())
      .def(
          "bytes",
          [](nb::handle self) {
            // The NumPy array keeps the view (and so the buffer) alive.
            HostView& v = nb::cast<HostView&>(self);
            const std::size_t shape[1] = {v.bytes()};
            return nb::cast(nb::ndarray<nb::numpy, std::uint8_t, nb::ndim<1>>(
                static_cast<std::uint8_t*>(v.data()), 1, shape, self));
          },
          "The view's bytes as a NumPy uint8 array.");
  m.def("map", &open_view, nb::arg("buffer"), nb::arg("write_back") = true, nb::arg("copy") = false,
        nb::arg("stream") = nb::none());
  m.def("host_capsule", &host_capsule, nb::arg("view"), nb::arg("shape"), nb::arg("versioned"));
  m.def(
      "dlpack",
      [](const BufferPtr& buffer, const std::vector<std::int64_t>& shape, bool versioned) {
        return device_capsule(buffer, shape, versioned);
      },
      nb::arg("buffer"), nb::arg("shape"), nb::arg("versioned"));
  m.def(
      "dlpack_device",
      [](const BufferPtr& buffer) {
        const xgpu::Device device = buffer->home->context().device();
        if (xgpu::interop::backend(device) == "cuda")
          return std::make_pair(int{kDLCUDA}, static_cast<int>(xgpu::cuda::device(device)));
        return std::make_pair(int{kDLOpenCL}, static_cast<int>(buffer->device_index()));
      },
      nb::arg("buffer"));
  m.def(
      "shares_host_memory",
      [](const BufferPtr& buffer) {
        return xgpu::ext::shares_host_memory(buffer->home->context().device().info());
      },
      nb::arg("buffer"));
  m.attr("DLPACK_IS_COPIED") = kFlagIsCopied;
}

}  // namespace xgpu_python
