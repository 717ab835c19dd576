// Python values as kernel arguments: each converted by its parameter's type (numbers to float,
// double, half or the integer type; arrays to buffers; xgpu.Local to local memory; a sequence
// to a vector; bytes to a struct), added to an xgpu::KernelArgs whose checks at launch name
// any mistake the conversion leaves.
#include <nanobind/stl/string.h>

#include <array>
#include <cstring>
#include <vector>

#include "common.hpp"
#include "kernels.hpp"

namespace xgpu_python {

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

namespace {

[[noreturn]] void bad_argument(const PyKernel& kernel, std::size_t index, const std::string& why) {
  const std::string name = index < kernel.plans.size() && !kernel.plans[index].name.empty()
                               ? " (" + kernel.plans[index].name + ")"
                               : std::string();
  throw nb::type_error(("xgpu: kernel '" + kernel.kernel.name() + "' argument " +
                        std::to_string(index) + name + ": " + why)
                           .c_str());
}

std::string type_of(nb::handle h) { return nb::type_name(h.type()).c_str(); }

// The DeviceBuffer of an xgpu.Array (its `_b`) or of a Buffer itself; nullptr otherwise. The
// type is compared by pointer: every argument of every launch asks.
DeviceBuffer* buffer_of(nb::handle h) {
  static PyTypeObject* const buffer_type =
      reinterpret_cast<PyTypeObject*>(nb::type<DeviceBuffer>().ptr());
  if (Py_TYPE(h.ptr()) == buffer_type) return nb::inst_ptr<DeviceBuffer>(h);
  static PyObject* const field = PyUnicode_InternFromString("_b");
  PyObject* inner = PyObject_GetAttr(h.ptr(), field);
  if (inner == nullptr) {
    PyErr_Clear();
    return nullptr;
  }
  nb::object owned = nb::steal(inner);  // the Array keeps it alive beyond this reference
  return Py_TYPE(inner) == buffer_type ? nb::inst_ptr<DeviceBuffer>(owned) : nullptr;
}

void add_real(xgpu::KernelArgs& out, Real real, double value) {
  switch (real) {
    case Real::f16:
      out.add(half_of(value));
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
      lanes[i] = half_of(values[i]);
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
  if (e == "float")
    add_vector_lanes<float>(out, plan.lanes, values);
  else if (e == "double")
    add_vector_lanes<double>(out, plan.lanes, values);
  else if (e == "half")
    add_vector_lanes<xgpu::half>(out, plan.lanes, values);
  else if (e == "char")
    add_vector_lanes<std::int8_t>(out, plan.lanes, values);
  else if (e == "uchar")
    add_vector_lanes<std::uint8_t>(out, plan.lanes, values);
  else if (e == "short")
    add_vector_lanes<std::int16_t>(out, plan.lanes, values);
  else if (e == "ushort")
    add_vector_lanes<std::uint16_t>(out, plan.lanes, values);
  else if (e == "int")
    add_vector_lanes<std::int32_t>(out, plan.lanes, values);
  else if (e == "uint")
    add_vector_lanes<std::uint32_t>(out, plan.lanes, values);
  else if (e == "long")
    add_vector_lanes<std::int64_t>(out, plan.lanes, values);
  else if (e == "ulong")
    add_vector_lanes<std::uint64_t>(out, plan.lanes, values);
  else
    return false;
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
  if (kind == "f")
    out.add(nb::cast<float>(value));
  else if (kind == "d")
    out.add(nb::cast<double>(value));
  else if (kind == "e")
    out.add(xgpu::to_half(nb::cast<float>(value)));
  else if (kind == "E")  // ml_dtypes.bfloat16: a ushort parameter
    out.add(bfloat16_of(nb::cast<double>(value)));
  else if (kind == "b")
    out.add(nb::cast<std::int8_t>(value));
  else if (kind == "B")
    out.add(nb::cast<std::uint8_t>(value));
  else if (kind == "h")
    out.add(nb::cast<std::int16_t>(value));
  else if (kind == "H")
    out.add(nb::cast<std::uint16_t>(value));
  else if (kind == "i")
    out.add(nb::cast<std::int32_t>(value));
  else if (kind == "I")
    out.add(nb::cast<std::uint32_t>(value));
  else if (kind == "l" || kind == "q")
    out.add(nb::cast<std::int64_t>(value));
  else if (kind == "L" || kind == "Q")
    out.add(nb::cast<std::uint64_t>(value));
  else
    return false;
  return true;
}

}  // namespace

void add_argument(const PyKernel& kernel, std::size_t index, nb::handle h, xgpu::KernelArgs& out) {
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

}  // namespace xgpu_python
