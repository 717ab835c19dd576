// xgpu.Program and its kernels: a build through the shared kernel cache (GIL released), and a
// launch k(global_size, *args, local_size=None, stream=None) that converts each Python argument
// by the kernel's parameter type (numbers to float, double, half or the integer type; arrays to
// buffers; xgpu.Local to local memory; a sequence to a vector; bytes to a struct) and hands the
// list to Queue::launch as xgpu::KernelArgs, whose checks name any mistake.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <array>
#include <cstring>

#include "common.hpp"
#include "kernels.hpp"
#include "streams.hpp"

namespace xgpu_python {
namespace {

// ---- How each parameter takes a Python value --------------------------------------------------

Plan plan_for(const xgpu::KernelParameter& p) {
  Plan plan;
  plan.name = p.name;
  plan.type = p.type;
  plan.element = p.element;
  plan.lanes = p.lanes;
  using Space = xgpu::KernelParameter::Space;
  if (p.space == Space::global || p.space == Space::constant) {
    plan.take = Take::buffer;
  } else if (p.space == Space::local) {
    plan.take = Take::local;
  } else if (p.element.empty()) {
    plan.take = Take::bytes;
  } else if (p.lanes > 1) {
    plan.take = Take::vector;
  } else if (p.element == "float" || p.element == "double" || p.element == "half") {
    plan.take = Take::real;
    plan.real = p.element == "half" ? Real::f16 : p.element == "float" ? Real::f32 : Real::f64;
  } else {
    plan.take = Take::integer;
  }
  return plan;
}

[[noreturn]] void bad_argument(const PyKernel& kernel, std::size_t index, const std::string& why) {
  const std::string name =
      index < kernel.plans.size() && !kernel.plans[index].name.empty()
          ? " (" + kernel.plans[index].name + ")"
          : std::string();
  throw nb::type_error(("xgpu: kernel '" + kernel.kernel.name() + "' argument " +
                        std::to_string(index) + name + ": " + why)
                           .c_str());
}

std::string type_of(nb::handle h) { return nb::type_name(h.type()).c_str(); }

// The DeviceBuffer of an xgpu.Array (its `_b`) or of a Buffer itself; nullptr otherwise.
DeviceBuffer* buffer_of(nb::handle h) {
  if (nb::isinstance<DeviceBuffer>(h)) return nb::inst_ptr<DeviceBuffer>(h);
  static PyObject* const field = PyUnicode_InternFromString("_b");
  PyObject* inner = PyObject_GetAttr(h.ptr(), field);
  if (inner == nullptr) {
    PyErr_Clear();
    return nullptr;
  }
  nb::object owned = nb::steal(inner);
  return nb::isinstance<DeviceBuffer>(owned) ? nb::inst_ptr<DeviceBuffer>(owned) : nullptr;
}

void add_real(xgpu::KernelArgs& out, Real real, double value) {
  switch (real) {
    case Real::f16:
      out.add(xgpu::to_half(static_cast<float>(value)));
      break;
    case Real::f32:
      out.add(static_cast<float>(value));
      break;
    case Real::f64:
      out.add(value);
      break;
  }
}

// A Python integer (or anything with __index__) as int64, or uint64 above int64's range; the
// core converts it to the parameter's type when the value fits, and names it when not.
bool add_integer(xgpu::KernelArgs& out, nb::handle h) {
  if (PyFloat_Check(h.ptr()) || !PyIndex_Check(h.ptr())) return false;
  nb::object index = nb::steal(PyNumber_Index(h.ptr()));
  if (!index.is_valid()) {
    PyErr_Clear();
    return false;
  }
  int overflow = 0;
  const long long value = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
  if (overflow > 0) {
    const unsigned long long big = PyLong_AsUnsignedLongLong(index.ptr());
    if (PyErr_Occurred()) {
      PyErr_Clear();
      return false;
    }
    out.add(static_cast<std::uint64_t>(big));
  } else if (overflow < 0) {
    return false;
  } else {
    out.add(static_cast<std::int64_t>(value));
  }
  return true;
}

template <class T, std::size_t N>
void add_vector_of(xgpu::KernelArgs& out, const std::vector<double>& values) {
  std::array<T, N> lanes{};
  for (std::size_t i = 0; i < N && i < values.size(); ++i) {
    if constexpr (std::is_same_v<T, xgpu::half>)
      lanes[i] = xgpu::to_half(static_cast<float>(values[i]));
    else
      lanes[i] = static_cast<T>(values[i]);
  }
  out.add(lanes);
}

template <class T>
void add_vector_lanes(xgpu::KernelArgs& out, unsigned lanes, const std::vector<double>& values) {
  switch (lanes) {
    case 2:
      return add_vector_of<T, 2>(out, values);
    case 3:  // a 3-vector takes the room of 4
    case 4:
      return add_vector_of<T, 4>(out, values);
    case 8:
      return add_vector_of<T, 8>(out, values);
    default:
      return add_vector_of<T, 16>(out, values);
  }
}

bool add_vector(xgpu::KernelArgs& out, const Plan& plan, nb::handle h) {
  if (!PySequence_Check(h.ptr()) || PyUnicode_Check(h.ptr()) || PyBytes_Check(h.ptr()))
    return false;
  nb::sequence items = nb::borrow<nb::sequence>(h);
  const std::size_t n = nb::len(items);
  if (n != plan.lanes) return false;
  std::vector<double> values;
  for (nb::handle item : items) values.push_back(nb::cast<double>(item));
  const std::string& e = plan.element;
  if (e == "float") add_vector_lanes<float>(out, plan.lanes, values);
  else if (e == "double") add_vector_lanes<double>(out, plan.lanes, values);
  else if (e == "half") add_vector_lanes<xgpu::half>(out, plan.lanes, values);
  else if (e == "char") add_vector_lanes<std::int8_t>(out, plan.lanes, values);
  else if (e == "uchar") add_vector_lanes<std::uint8_t>(out, plan.lanes, values);
  else if (e == "short") add_vector_lanes<std::int16_t>(out, plan.lanes, values);
  else if (e == "ushort") add_vector_lanes<std::uint16_t>(out, plan.lanes, values);
  else if (e == "int") add_vector_lanes<std::int32_t>(out, plan.lanes, values);
  else if (e == "uint") add_vector_lanes<std::uint32_t>(out, plan.lanes, values);
  else if (e == "long") add_vector_lanes<std::int64_t>(out, plan.lanes, values);
  else if (e == "ulong") add_vector_lanes<std::uint64_t>(out, plan.lanes, values);
  else return false;
  return true;
}

bool add_bytes(xgpu::KernelArgs& out, nb::handle h) {
  Py_buffer view;
  if (PyObject_GetBuffer(h.ptr(), &view, PyBUF_C_CONTIGUOUS) != 0) {
    PyErr_Clear();
    return false;
  }
  out.add_bytes(view.buf, static_cast<std::size_t>(view.len));
  PyBuffer_Release(&view);
  return true;
}

// A NumPy scalar passed where the kernel reports no parameter types: by its own type.
bool add_numpy_scalar(xgpu::KernelArgs& out, nb::handle h) {
  if (!nb::hasattr(h, "dtype") || !nb::hasattr(h, "item")) return false;
  const std::string kind = nb::cast<std::string>(h.attr("dtype").attr("char"));
  nb::object value = h.attr("item")();
  if (kind == "f") out.add(nb::cast<float>(value));
  else if (kind == "d") out.add(nb::cast<double>(value));
  else if (kind == "e") out.add(xgpu::to_half(nb::cast<float>(value)));
  else if (kind == "b") out.add(nb::cast<std::int8_t>(value));
  else if (kind == "B") out.add(nb::cast<std::uint8_t>(value));
  else if (kind == "h") out.add(nb::cast<std::int16_t>(value));
  else if (kind == "H") out.add(nb::cast<std::uint16_t>(value));
  else if (kind == "i") out.add(nb::cast<std::int32_t>(value));
  else if (kind == "I") out.add(nb::cast<std::uint32_t>(value));
  else if (kind == "l" || kind == "q") out.add(nb::cast<std::int64_t>(value));
  else if (kind == "L" || kind == "Q") out.add(nb::cast<std::uint64_t>(value));
  else return false;
  return true;
}

void add_argument(const PyKernel& kernel, std::size_t index, nb::handle h,
                  xgpu::KernelArgs& out) {
  static const Plan kUnknown;
  const bool known = index < kernel.plans.size();
  const Plan& plan = known ? kernel.plans[index] : kUnknown;
  if (plan.take == Take::buffer || !known) {
    if (h.is_none() && known) {
      out.add(nullptr);
      return;
    }
    if (DeviceBuffer* buffer = buffer_of(h)) {
      std::visit([&](const auto& b) { out.add(b); }, buffer->buffer);
      return;
    }
    if (known)
      bad_argument(kernel, index, "expects an xgpu.Array (" + plan.type + "), got " + type_of(h));
  }
  if (plan.take == Take::local || !known) {
    if (nb::isinstance<LocalMemory>(h)) {
      const LocalMemory& local = nb::cast<const LocalMemory&>(h);
      with_storage(local.dtype, [&](auto tag) {
        out.add(xgpu::Local<typename decltype(tag)::type>(local.count));
      });
      return;
    }
    if (known) bad_argument(kernel, index, "expects xgpu.Local(dtype, count), got " + type_of(h));
  }
  if (!known) {
    if (add_numpy_scalar(out, h) || add_bytes(out, h)) return;
    bad_argument(kernel, index,
                 "the driver reports no parameter types for this kernel: pass NumPy scalars "
                 "(numpy.float32(2.0), numpy.uint32(n)), arrays or xgpu.Local, got " +
                     type_of(h));
  }
  switch (plan.take) {
    case Take::real: {
      if (PyFloat_Check(h.ptr()) || PyLong_Check(h.ptr()) || PyNumber_Check(h.ptr())) {
        const double value = PyFloat_AsDouble(h.ptr());
        if (!(value == -1.0 && PyErr_Occurred())) {
          add_real(out, plan.real, value);
          return;
        }
        PyErr_Clear();
      }
      bad_argument(kernel, index, "expects " + plan.type + ", got " + type_of(h));
    }
    case Take::integer:
      if (add_integer(out, h)) return;
      bad_argument(kernel, index,
                   "expects " + plan.type + ", got " + type_of(h) +
                       (PyFloat_Check(h.ptr()) ? " (an integer parameter takes no float)"
                                               : " (or an integer out of 64-bit range)"));
    case Take::vector:
      if (add_vector(out, plan, h)) return;
      bad_argument(kernel, index,
                   "expects " + plan.type + ": a sequence of " + std::to_string(plan.lanes) +
                       " numbers, got " + type_of(h));
    case Take::bytes:
      if (add_bytes(out, h)) return;
      bad_argument(kernel, index,
                   "expects " + plan.type +
                       ": its bytes (bytes, or a NumPy structured scalar or array), got " +
                       type_of(h));
    default:
      break;
  }
  bad_argument(kernel, index, "cannot take " + type_of(h));
}

xgpu::Range range_of(nb::handle h, const char* what) {
  if (PyLong_Check(h.ptr()) || PyIndex_Check(h.ptr())) return xgpu::Range{nb::cast<std::size_t>(h)};
  std::vector<std::size_t> sizes;
  try {
    sizes = nb::cast<std::vector<std::size_t>>(h);
  } catch (const nb::cast_error&) {
    sizes.clear();
  }
  if (sizes.size() == 1) return xgpu::Range{sizes[0]};
  if (sizes.size() == 2) return xgpu::Range{sizes[0], sizes[1]};
  if (sizes.size() == 3) return xgpu::Range{sizes[0], sizes[1], sizes[2]};
  throw nb::type_error(
      (std::string("xgpu: ") + what + " is an int or a tuple of 1 to 3 ints").c_str());
}

StreamPtr stream_of_kernel(const PyKernel& kernel, nb::handle given) {
  if (given.is_valid() && !given.is_none()) return nb::cast<StreamPtr>(given);
  StreamPtr current = current_stream(kernel.home->device_index());
  return current->context_id() == kernel.home->context_id() ? current : kernel.home;
}

// One KernelArgs per thread, cleared for each launch: a launch allocates nothing once warm.
thread_local xgpu::KernelArgs t_args;

// k(global_size, *args, local_size=None, stream=None), as the type's call slot: CPython hands
// over the argument tuple as it is, without nanobind's overload dispatch in between (a launch
// is measured against PyOpenCL's).
PyObject* call(PyObject* self, PyObject* args, PyObject* kwargs) noexcept {
  try {
    PyKernel& kernel = *nb::inst_ptr<PyKernel>(self);
    const Py_ssize_t given = PyTuple_GET_SIZE(args);
    if (given < 1) throw nb::type_error("xgpu: a kernel is called as k(global_size, *args)");
    nb::handle local_size, stream;
    if (kwargs != nullptr) {
      PyObject *key, *value;
      Py_ssize_t at = 0;
      while (PyDict_Next(kwargs, &at, &key, &value)) {
        if (PyUnicode_CompareWithASCIIString(key, "local_size") == 0) {
          local_size = value;
        } else if (PyUnicode_CompareWithASCIIString(key, "stream") == 0) {
          stream = value;
        } else {
          throw nb::type_error(("xgpu: a kernel call takes no keyword '" +
                                nb::cast<std::string>(nb::handle(key)) +
                                "' (only local_size and stream)")
                                   .c_str());
        }
      }
    }
    xgpu::Launch launch(range_of(PyTuple_GET_ITEM(args, 0), "global_size"));
    if (local_size.is_valid() && !local_size.is_none())
      launch.local(range_of(local_size, "local_size"));
    xgpu::KernelArgs& list = t_args;
    list.clear();
    for (Py_ssize_t i = 1; i < given; ++i)
      add_argument(kernel, static_cast<std::size_t>(i - 1), PyTuple_GET_ITEM(args, i), list);
    StreamPtr on = stream_of_kernel(kernel, stream);
    xgpu::Event event = on->queue().launch(kernel.kernel, launch, list);
    return nb::cast(PyEvent{std::move(event), on->device_index()}).release().ptr();
  } catch (...) {
    set_python_error();
    return nullptr;
  }
}

PyProgram build(const std::string& source, const std::string& options, const std::string& name,
                const std::vector<std::pair<std::string, std::string>>& headers,
                std::optional<std::size_t> device, std::optional<StreamPtr> stream) {
  StreamPtr home = stream && *stream ? *stream : device_state(device ? *device : current_device()).default_stream;
  std::vector<xgpu::Source> includes;
  for (const auto& [file, text] : headers) includes.push_back(xgpu::Source{file, text});
  nb::gil_scoped_release release;
  return PyProgram{home->context().build(xgpu::Source{name, source}, options, includes), home};
}

PyKernel kernel_of(const PyProgram& program, const std::string& name) {
  PyKernel k;
  k.kernel = program.program.kernel(name);
  k.home = program.home;
  for (const auto& parameter : k.kernel.parameters()) k.plans.push_back(plan_for(parameter));
  return k;
}

nb::list parameters_of(const PyKernel& k) {
  nb::list out;
  for (const auto& p : k.kernel.parameters()) {
    using Space = xgpu::KernelParameter::Space;
    nb::dict d;
    d["name"] = p.name;
    d["type"] = p.type;
    d["space"] = p.space == Space::global     ? "global"
                 : p.space == Space::constant ? "constant"
                 : p.space == Space::local    ? "local"
                                              : "value";
    d["pointer"] = p.pointer;
    d["element"] = p.element;
    d["lanes"] = p.lanes;
    out.append(d);
  }
  return out;
}

}  // namespace

void bind_kernels(nb::module_& m) {
  nb::class_<LocalMemory>(m, "Local", "Local (work-group) memory of `count` elements.")
      .def(nb::init<>())
      .def_prop_ro("count", [](const LocalMemory& l) { return l.count; })
      .def_prop_ro("dtype", [](const LocalMemory& l) { return static_cast<int>(l.dtype); });
  m.def(
      "local",
      [](int code, std::size_t count) { return LocalMemory{dtype_from_int(code), count}; },
      nb::arg("dtype"), nb::arg("count"));

  nb::class_<PyProgram>(m, "Program")
      .def("kernel", &kernel_of, nb::arg("name"))
      .def_prop_ro("kernel_names", [](const PyProgram& p) { return p.program.kernel_names(); })
      .def_prop_ro("build_log", [](const PyProgram& p) { return p.program.build_log(); })
      .def_prop_ro("source_name", [](const PyProgram& p) { return p.program.source_name(); })
      .def_prop_ro("device", [](const PyProgram& p) { return p.home->device_index(); });

  static PyType_Slot kernel_slots[] = {{Py_tp_call, reinterpret_cast<void*>(&call)},
                                       {0, nullptr}};
  nb::class_<PyKernel>(m, "Kernel", nb::type_slots(kernel_slots),
                       "A kernel: k(global_size, *args, local_size=None, stream=None) -> Event.")
      .def_prop_ro("name", [](const PyKernel& k) { return k.kernel.name(); })
      .def_prop_ro("arg_count", [](const PyKernel& k) { return k.kernel.arg_count(); })
      .def_prop_ro("parameters", &parameters_of)
      .def_prop_ro("device", [](const PyKernel& k) { return k.home->device_index(); })
      .def_prop_ro("max_work_group_size",
                   [](const PyKernel& k) { return k.kernel.limits().max_work_group_size; })
      .def("__repr__",
           [](const PyKernel& k) { return "<xgpu.Kernel '" + k.kernel.name() + "'>"; });

  m.def("build", &build, nb::arg("source"), nb::arg("options") = "", nb::arg("name") = "kernel.cl",
        nb::arg("headers") = std::vector<std::pair<std::string, std::string>>{},
        nb::arg("device") = nb::none(), nb::arg("stream") = nb::none());
}

}  // namespace xgpu_python
