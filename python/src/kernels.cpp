// xgpu.Program and its kernels: a build through the shared kernel cache (GIL released), and a
// launch k(global_size, *args, local_size=None, stream=None) that converts each Python argument
// by the kernel's parameter type (arguments.cpp) and hands the list to Queue::launch as
// xgpu::KernelArgs, whose checks name any mistake.
#include "kernels.hpp"

#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <array>
#include <cstring>

#include "common.hpp"
#include "streams.hpp"

namespace xgpu_python {
namespace {

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
  StreamPtr home = stream && *stream
                       ? *stream
                       : device_state(device ? *device : current_device()).default_stream;
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
      [](int code, std::size_t count) {
        return LocalMemory{dtype_from_int(code), count};
      },
      nb::arg("dtype"), nb::arg("count"));

  nb::class_<PyProgram>(m, "Program")
      .def("kernel", &kernel_of, nb::arg("name"))
      .def_prop_ro("kernel_names", [](const PyProgram& p) { return p.program.kernel_names(); })
      .def_prop_ro("build_log", [](const PyProgram& p) { return p.program.build_log(); })
      .def_prop_ro("source_name", [](const PyProgram& p) { return p.program.source_name(); })
      .def_prop_ro("device", [](const PyProgram& p) { return p.home->device_index(); });

  static PyType_Slot kernel_slots[] = {{Py_tp_call, reinterpret_cast<void*>(&call)}, {0, nullptr}};
  nb::class_<PyKernel>(m, "Kernel", nb::type_slots(kernel_slots),
                       "A kernel: k(global_size, *args, local_size=None, stream=None) -> Event.")
      .def_prop_ro("name", [](const PyKernel& k) { return k.kernel.name(); })
      .def_prop_ro("arg_count", [](const PyKernel& k) { return k.kernel.arg_count(); })
      .def_prop_ro("parameters", &parameters_of)
      .def_prop_ro("device", [](const PyKernel& k) { return k.home->device_index(); })
      .def_prop_ro("max_work_group_size",
                   [](const PyKernel& k) { return k.kernel.limits().max_work_group_size; })
      .def("__repr__", [](const PyKernel& k) { return "<xgpu.Kernel '" + k.kernel.name() + "'>"; });

  m.def("build", &build, nb::arg("source"), nb::arg("options") = "", nb::arg("name") = "kernel.cl",
        nb::arg("headers") = std::vector<std::pair<std::string, std::string>>{},
        nb::arg("device") = nb::none(), nb::arg("stream") = nb::none());
}

}  // namespace xgpu_python
