// The device buffer behind xgpu.Array (_xgpu.Buffer): allocation, views, copies to and from
// NumPy (asynchronous from and to pinned memory), device copies and fills. Every blocking copy
// releases the GIL.
#include "buffers.hpp"

#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/shared_ptr.h>

#include <map>
#include <mutex>
#include <xgpu/extension.hpp>

#include "common.hpp"
#include "streams.hpp"

namespace xgpu_python {
namespace {

// ---- Pinned host memory (xgpu.empty_pinned) -------------------------------------------------

// HostBuffers by the address of their first byte, so that a NumPy array (or a slice of one) in
// pinned memory can be found again for an asynchronous copy.
std::mutex g_pinned_mutex;
std::map<std::uintptr_t, std::weak_ptr<PinnedHost>>* g_pinned =
    new std::map<std::uintptr_t, std::weak_ptr<PinnedHost>>;

}  // namespace

PinnedHost::~PinnedHost() {
  std::lock_guard<std::mutex> lock(g_pinned_mutex);
  g_pinned->erase(address);
}

std::shared_ptr<PinnedHost> find_pinned(const void* data, std::size_t bytes) {
  const auto at = reinterpret_cast<std::uintptr_t>(data);
  std::lock_guard<std::mutex> lock(g_pinned_mutex);
  auto found = g_pinned->upper_bound(at);
  if (found == g_pinned->begin()) return nullptr;
  --found;
  std::shared_ptr<PinnedHost> pinned = found->second.lock();
  if (!pinned || at + bytes > pinned->address + pinned->bytes) return nullptr;
  return pinned;
}

namespace {

nb::object empty_pinned(std::size_t count, int code, std::optional<std::size_t> device) {
  const DType dtype = dtype_from_int(code);
  DeviceState& state = device_state(device ? *device : current_device());
  auto pinned = std::make_shared<PinnedHost>();
  pinned->dtype = dtype;
  with_storage(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    auto host = state.context.alloc_host<T>(count);
    pinned->address = reinterpret_cast<std::uintptr_t>(host.data());
    pinned->bytes = host.size_bytes();
    pinned->pinned = host.pinned();
    pinned->host = std::move(host);
  });
  if (pinned->address != 0) {
    std::lock_guard<std::mutex> lock(g_pinned_mutex);
    (*g_pinned)[pinned->address] = pinned;
  }
  // The NumPy array owns a reference: the memory lives as long as any view of it.
  auto* owner = new std::shared_ptr<PinnedHost>(pinned);
  nb::capsule keep(owner,
                   [](void* p) noexcept { delete static_cast<std::shared_ptr<PinnedHost>*>(p); });
  // Bytes: xgpu/_memory.py views them as the dtype (NumPy knows float16 and bool; DLPack's
  // codes would need a table of their own here).
  const std::size_t byte_shape[1] = {pinned->bytes};
  return nb::cast(nb::ndarray<nb::numpy, std::uint8_t, nb::ndim<1>>(
      reinterpret_cast<std::uint8_t*>(pinned->address), 1, byte_shape, keep));
}

// ---- Copies between NumPy and the device -------------------------------------------------------

using Host = nb::ndarray<nb::device::cpu, nb::c_contig>;
using ReadOnlyHost = nb::ndarray<nb::ro, nb::device::cpu, nb::c_contig>;

template <class HostArray>
void check_host(const DeviceBuffer& buffer, const HostArray& host, std::size_t count,
                std::size_t offset, const char* what) {
  const std::size_t size = buffer.size();
  if (offset > size || count > size - offset)
    throw nb::value_error(
        (std::string("xgpu: ") + what + " reaches past the end of the array").c_str());
  if (host.nbytes() != count * element_size(buffer.dtype))
    throw nb::value_error((std::string("xgpu: ") + what + ": the host array has " +
                           std::to_string(host.nbytes()) + " bytes, the copy needs " +
                           std::to_string(count * element_size(buffer.dtype)))
                              .c_str());
}

// `host` is a ReadOnlyHost for a copy to the device, a Host for one from it.
template <class HostArray>
PyEvent transfer(bool to_device, const BufferPtr& buffer, HostArray host, std::size_t offset,
                 bool non_blocking, const std::optional<StreamPtr>& given) {
  const std::size_t count = host.nbytes() / element_size(buffer->dtype);
  check_host(*buffer, host, count, offset,
             to_device ? "a copy to the device" : "a copy to the host");
  StreamPtr stream = stream_for(*buffer, given ? *given : nullptr);
  void* data = const_cast<void*>(static_cast<const void*>(host.data()));
  std::shared_ptr<PinnedHost> pinned = non_blocking ? find_pinned(data, host.nbytes()) : nullptr;
  nb::gil_scoped_release release;
  return std::visit(
      [&](auto& typed) -> PyEvent {
        using T = typename std::decay_t<decltype(typed)>::value_type;
        xgpu::Queue& queue = stream->queue();
        if (pinned) {
          if (auto* host_buffer = std::get_if<xgpu::HostBuffer<T>>(&pinned->host)) {
            const std::size_t host_offset =
                (reinterpret_cast<std::uintptr_t>(data) - pinned->address) / sizeof(T);
            xgpu::Event event =
                to_device ? queue.write_async(typed, *host_buffer, count, offset, host_offset)
                          : queue.read_async(typed, *host_buffer, count, offset, host_offset);
            return PyEvent{std::move(event), stream->device_index()};
          }
        }
        // Not pinned (or pinned as another type): a blocking copy, as torch does.
        if (to_device)
          queue.write(typed, static_cast<const T*>(data), count, offset);
        else
          queue.read(typed, static_cast<T*>(data), count, offset);
        return PyEvent{xgpu::Event(), stream->device_index()};
      },
      buffer->buffer);
}

PyEvent device_copy(const BufferPtr& src, const BufferPtr& dst, std::size_t count,
                    std::size_t src_offset, std::size_t dst_offset,
                    const std::optional<StreamPtr>& given) {
  if (src->buffer.index() != dst->buffer.index())
    throw nb::type_error((std::string("xgpu: a device copy needs one element type, not ") +
                          dtype_name(src->dtype) + " and " + dtype_name(dst->dtype) +
                          " (convert with astype)")
                             .c_str());
  if (src->home->context_id() != dst->home->context_id()) {
    // Arrays of two contexts (two devices): through the host.
    std::vector<unsigned char> staging(count * element_size(src->dtype));
    nb::gil_scoped_release release;
    std::visit(
        [&](auto& from) {
          using T = typename std::decay_t<decltype(from)>::value_type;
          src->home->queue().read(from, reinterpret_cast<T*>(staging.data()), count, src_offset);
          auto& to = std::get<std::decay_t<decltype(from)>>(dst->buffer);
          dst->home->queue().write(to, reinterpret_cast<const T*>(staging.data()), count,
                                   dst_offset);
        },
        src->buffer);
    return PyEvent{xgpu::Event(), dst->device_index()};
  }
  StreamPtr stream = stream_for(*dst, given ? *given : nullptr);
  return std::visit(
      [&](auto& to) -> PyEvent {
        const auto& from = std::get<std::decay_t<decltype(to)>>(src->buffer);
        return PyEvent{stream->queue().copy(from, to, count, src_offset, dst_offset),
                       stream->device_index()};
      },
      dst->buffer);
}

PyEvent fill(const BufferPtr& buffer, nb::handle value, const std::optional<StreamPtr>& given) {
  StreamPtr stream = stream_for(*buffer, given ? *given : nullptr);
  return std::visit(
      [&](auto& typed) -> PyEvent {
        using T = typename std::decay_t<decltype(typed)>::value_type;
        T element{};
        if constexpr (std::is_same_v<T, xgpu::half>) {
          element = half_of(nb::cast<double>(value));
        } else if constexpr (std::is_same_v<T, xgpu::bfloat16>) {
          element = bfloat16_of(nb::cast<double>(value));
        } else if constexpr (std::is_floating_point_v<T>) {
          element = nb::cast<T>(value);
        } else if (buffer->dtype == DType::bool_) {
          element = static_cast<T>(nb::cast<bool>(value) ? 1 : 0);
        } else {
          element = nb::cast<T>(value);  // a Python int out of T's range raises
        }
        return PyEvent{stream->queue().fill(typed, element), stream->device_index()};
      },
      buffer->buffer);
}

BufferPtr view_of(const BufferPtr& buffer, std::size_t offset, std::size_t count) {
  auto view = std::make_shared<DeviceBuffer>();
  view->dtype = buffer->dtype;
  view->home = buffer->home;
  view->buffer =
      std::visit([&](const auto& b) -> AnyBuffer { return b.view(offset, count); }, buffer->buffer);
  return view;
}

}  // namespace

void bind_buffers(nb::module_& m) {
  nb::class_<DeviceBuffer>(m, "Buffer", "Device memory behind an xgpu.Array.")
      .def_prop_ro("size", &DeviceBuffer::size)
      .def_prop_ro("dtype", [](const DeviceBuffer& b) { return static_cast<int>(b.dtype); })
      .def_prop_ro("device", &DeviceBuffer::device_index)
      .def_prop_ro("stream", [](const DeviceBuffer& b) { return b.home; })
      .def(
          "stream_for",
          [](const DeviceBuffer& b, std::optional<StreamPtr> given) {
            return stream_for(b, given ? *given : nullptr);
          },
          nb::arg("stream").none(), "The stream an operation on the array runs on (xgpu.mpi).")
      .def("view", &view_of, nb::arg("offset"), nb::arg("count"))
      .def(
          "as_bytes",
          [](const DeviceBuffer& b) {
            auto bytes = std::make_shared<DeviceBuffer>();
            bytes->dtype = DType::uint8;
            bytes->home = b.home;
            bytes->buffer = std::visit(
                [](const auto& typed) -> AnyBuffer {
                  return xgpu::ext::reinterpret<std::uint8_t>(typed);
                },
                b.buffer);
            return bytes;
          },
          "The same memory as uint8 elements (kernels that move raw bytes).")
      .def("kernel_can_take",
           [](const DeviceBuffer& b) {
             return std::visit([](const auto& x) { return xgpu::ext::kernel_can_take(x); },
                               b.buffer);
           })
      .def("same_memory",
           [](const DeviceBuffer& a, const DeviceBuffer& b) {
             return std::visit(
                 [](const auto& x, const auto& y) { return xgpu::ext::same_buffer(x, y); },
                 a.buffer, b.buffer);
           })
      .def("overlaps", [](const DeviceBuffer& a, const DeviceBuffer& b) {
        return std::visit([](const auto& x, const auto& y) { return xgpu::ext::overlap(x, y); },
                          a.buffer, b.buffer);
      });

  m.def(
      "empty",
      [](std::size_t count, int code, std::optional<StreamPtr> stream,
         std::optional<std::size_t> device) {
        StreamPtr on =
            stream && *stream ? *stream : current_stream(device ? *device : current_device());
        return allocate(on, dtype_from_int(code), count);
      },
      nb::arg("count"), nb::arg("dtype"), nb::arg("stream") = nb::none(),
      nb::arg("device") = nb::none());
  m.def(
      "write",
      [](const BufferPtr& b, ReadOnlyHost host, std::size_t offset, bool non_blocking,
         std::optional<StreamPtr> stream) {
        return transfer(true, b, host, offset, non_blocking, stream);
      },
      nb::arg("buffer"), nb::arg("host"), nb::arg("offset") = 0, nb::arg("non_blocking") = false,
      nb::arg("stream") = nb::none());
  m.def(
      "read",
      [](const BufferPtr& b, Host host, std::size_t offset, bool non_blocking,
         std::optional<StreamPtr> stream) {
        return transfer(false, b, host, offset, non_blocking, stream);
      },
      nb::arg("buffer"), nb::arg("host").noconvert(), nb::arg("offset") = 0,
      nb::arg("non_blocking") = false, nb::arg("stream") = nb::none());
  m.def("copy", &device_copy, nb::arg("src"), nb::arg("dst"), nb::arg("count"),
        nb::arg("src_offset") = 0, nb::arg("dst_offset") = 0, nb::arg("stream") = nb::none());
  m.def("fill", &fill, nb::arg("buffer"), nb::arg("value"), nb::arg("stream") = nb::none());
  m.def("empty_pinned", &empty_pinned, nb::arg("count"), nb::arg("dtype"),
        nb::arg("device") = nb::none());
  m.def(
      "is_pinned",
      [](ReadOnlyHost host) {
        std::shared_ptr<PinnedHost> p = find_pinned(host.data(), host.nbytes());
        return p != nullptr && p->pinned;
      },
      nb::arg("host").noconvert());
}

}  // namespace xgpu_python
