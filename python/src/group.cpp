// xgpu.DeviceGroup over xgpu::DeviceGroup: one context and stream per device (contexts of the
// group's own, apart from the package's), distributed arrays (scatter, broadcast, gather,
// all_reduce_sum) and for_each, whose Python body runs on each device's thread with that
// device's stream current. The calling thread releases the GIL while the devices work.
#include <nanobind/ndarray.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <stdexcept>
#include <xgpu/device_group.hpp>

#include "common.hpp"
#include "kernels.hpp"

namespace xgpu_python {
namespace {

struct PyGroup : std::enable_shared_from_this<PyGroup> {
  explicit PyGroup(xgpu::DeviceGroup g) : group(std::move(g)) {
    for (std::size_t i = 0; i < group.size(); ++i) {
      const auto& member = group[i];
      streams.push_back(
          std::make_shared<Stream>(member.queue, member.device.index(), new_context_id()));
    }
  }
  xgpu::DeviceGroup group;
  std::vector<StreamPtr> streams;  ///< device i's queue, as an xgpu.Stream
};
using GroupPtr = std::shared_ptr<PyGroup>;

template <class T>
using Part = xgpu::Distributed<T>;
using AnyDistributed =
    std::variant<Part<std::int8_t>, Part<std::uint8_t>, Part<std::int16_t>, Part<std::uint16_t>,
                 Part<std::int32_t>, Part<std::uint32_t>, Part<std::int64_t>, Part<std::uint64_t>,
                 Part<xgpu::half>, Part<float>, Part<double>, Part<xgpu::bfloat16>>;

template <class D>
struct ElementOf;
template <class T>
struct ElementOf<xgpu::Distributed<T>> {
  using type = T;
};

struct PyDistributed {
  AnyDistributed parts;
  DType dtype;
  GroupPtr group;
  std::size_t size() const {
    return std::visit([](const auto& p) { return p.size(); }, parts);
  }
};

using Host = nb::ndarray<nb::device::cpu, nb::c_contig>;
using ReadOnlyHost = nb::ndarray<nb::ro, nb::device::cpu, nb::c_contig>;

template <class HostArray>
std::size_t count_of(const HostArray& host, DType dtype) {
  if (host.nbytes() % element_size(dtype) != 0)
    throw nb::value_error("xgpu: the host array's bytes are not whole elements of its dtype");
  return host.nbytes() / element_size(dtype);
}

PyDistributed spread(const GroupPtr& group, ReadOnlyHost host, int code, bool replicate) {
  const DType dtype = dtype_from_int(code);
  const std::size_t count = count_of(host, dtype);
  const void* data = host.data();
  nb::gil_scoped_release release;
  return with_storage(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* typed = static_cast<const T*>(data);
    return PyDistributed{
        replicate ? group->group.broadcast(typed, count) : group->group.scatter(typed, count),
        dtype, group};
  });
}

void gather(const PyDistributed& d, Host host) {
  if (count_of(host, d.dtype) != d.size())
    throw nb::value_error("xgpu: DeviceGroup.gather: the output's size differs from the array's");
  void* data = host.data();
  nb::gil_scoped_release release;
  std::visit(
      [&](const auto& parts) {
        using T = typename ElementOf<std::decay_t<decltype(parts)>>::type;
        d.group->group.gather(parts, static_cast<T*>(data));
      },
      d.parts);
}

void all_reduce_sum(PyDistributed& d) {
  if (d.dtype == DType::bool_ || d.dtype == DType::float16 || d.dtype == DType::bfloat16)
    not_implemented(std::string("xgpu: DeviceGroup.all_reduce_sum on ") + dtype_name(d.dtype) +
                    " arrays is not supported; it takes integer, float32 and float64 arrays");
  nb::gil_scoped_release release;
  std::visit(
      [&](auto& parts) {
        using T = typename ElementOf<std::decay_t<decltype(parts)>>::type;
        if constexpr (std::is_arithmetic_v<T>) d.group->group.all_reduce_sum(parts);
      },
      d.parts);
}

// Device i's part, as the buffer of an xgpu.Array on device i's stream.
BufferPtr part(const PyDistributed& d, std::size_t i) {
  auto buffer = std::make_shared<DeviceBuffer>();
  buffer->dtype = d.dtype;
  std::visit([&](const auto& parts) { buffer->buffer = parts.buffer(i); }, d.parts);
  buffer->home = d.group->streams.at(i);
  return buffer;
}

std::pair<std::size_t, std::size_t> slice_of(const PyDistributed& d, std::size_t i) {
  const xgpu::Slice s = std::visit([&](const auto& parts) { return parts.slice(i); }, d.parts);
  return {s.offset, s.count};
}

// Runs body(stream, i, (offset, count)) on every device's thread. A Python exception in a body
// becomes that device's error; DeviceGroup then names each failing device in one xgpu.Error.
void for_each(const GroupPtr& group, nb::handle over, nb::callable body) {
  auto run = [&](xgpu::Queue&, std::size_t i, xgpu::Slice s) {
    nb::gil_scoped_acquire acquire;
    const StreamPtr& stream = group->streams[i];
    set_current_device(stream->device_index());
    set_current_stream(stream->device_index(), stream);
    try {
      body(stream, i, nb::make_tuple(s.offset, s.count));
    } catch (nb::python_error& error) {
      throw std::runtime_error(error.what());
    }
  };
  if (nb::isinstance<PyDistributed>(over)) {
    const PyDistributed& d = nb::cast<const PyDistributed&>(over);
    if (d.group != group)
      throw nb::value_error("xgpu: DeviceGroup.for_each: the array belongs to another group");
    nb::gil_scoped_release release;
    std::visit([&](const auto& parts) { group->group.for_each(parts, run); }, d.parts);
  } else {
    const std::size_t n = nb::cast<std::size_t>(over);
    nb::gil_scoped_release release;
    group->group.for_each(n, run);
  }
}

std::vector<PyProgram> build(const GroupPtr& group, const std::string& source,
                             const std::string& options, const std::string& name) {
  std::vector<xgpu::Program> programs;
  {
    nb::gil_scoped_release release;
    programs = group->group.build(xgpu::Source{name, source}, options);
  }
  std::vector<PyProgram> out;
  for (std::size_t i = 0; i < programs.size(); ++i)
    out.push_back(PyProgram{programs[i], group->streams[i]});
  return out;
}

}  // namespace

void bind_group(nb::module_& m) {
  nb::class_<PyDistributed>(m, "Distributed", "An array spread over a DeviceGroup's devices.")
      .def_prop_ro("size", &PyDistributed::size)
      .def_prop_ro("dtype", [](const PyDistributed& d) { return static_cast<int>(d.dtype); })
      .def_prop_ro("parts", [](const PyDistributed& d) { return d.group->streams.size(); })
      .def_prop_ro("replicated",
                   [](const PyDistributed& d) {
                     return std::visit([](const auto& p) { return p.replicated(); }, d.parts);
                   })
      .def("part", &part, nb::arg("device"))
      .def("slice", &slice_of, nb::arg("device"));

  nb::class_<PyGroup>(m, "DeviceGroup")
      .def_prop_ro("size", [](const PyGroup& g) { return g.group.size(); })
      .def_prop_ro("devices",
                   [](const PyGroup& g) {
                     std::vector<std::size_t> indices;
                     for (std::size_t i = 0; i < g.group.size(); ++i)
                       indices.push_back(g.group[i].device.index());
                     return indices;
                   })
      .def_prop_ro("streams", [](const PyGroup& g) { return g.streams; })
      .def("weights", [](const PyGroup& g) { return g.group.weights(); })
      .def(
          "set_weights",
          [](PyGroup& g, std::vector<double> w) { g.group.set_weights(std::move(w)); },
          nb::arg("weights"))
      .def("adapt_weights", [](PyGroup& g) { g.group.adapt_weights(); })
      .def(
          "split",
          [](const PyGroup& g, std::size_t n) {
            std::vector<std::pair<std::size_t, std::size_t>> out;
            for (const xgpu::Slice& s : g.group.split(n)) out.emplace_back(s.offset, s.count);
            return out;
          },
          nb::arg("n"));

  m.def(
      "new_group",
      [](const std::string& selector) {
        std::optional<xgpu::DeviceGroup> group;
        {
          nb::gil_scoped_release release;
          group.emplace(selector);
        }
        return std::make_shared<PyGroup>(std::move(*group));
      },
      nb::arg("selector"));
  m.def(
      "new_group_of",
      [](const std::vector<std::size_t>& indices) {
        std::vector<xgpu::Device> devices;
        for (std::size_t i : indices) devices.push_back(device_at(i));
        return std::make_shared<PyGroup>(xgpu::DeviceGroup(std::move(devices)));
      },
      nb::arg("devices"));
  m.def(
      "group_scatter",
      [](const GroupPtr& g, ReadOnlyHost host, int code) { return spread(g, host, code, false); },
      nb::arg("group"), nb::arg("host"), nb::arg("dtype"));
  m.def(
      "group_broadcast",
      [](const GroupPtr& g, ReadOnlyHost host, int code) { return spread(g, host, code, true); },
      nb::arg("group"), nb::arg("host"), nb::arg("dtype"));
  m.def("group_gather", &gather, nb::arg("d"), nb::arg("host").noconvert());
  m.def("group_all_reduce_sum", &all_reduce_sum, nb::arg("d"));
  m.def("group_for_each", &for_each, nb::arg("group"), nb::arg("over"), nb::arg("body"));
  m.def("group_build", &build, nb::arg("group"), nb::arg("source"), nb::arg("options") = "",
        nb::arg("name") = "kernel.cl");
}

}  // namespace xgpu_python
