// The rest of the package's C++ side: xgpu.Error from xgpu::Error, memory statistics of the
// package's contexts, the kernel cache's counters, device profiles, the trace, and the C++
// launch loop `python -m xgpu.bench` compares Python's launches with.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>

#include <chrono>
#include <optional>

#include "common.hpp"
#include "kernels.hpp"

namespace xgpu_python {
namespace {

// The Python classes xgpu/_errors.py defines, handed over at import.
PyObject* g_error_type = nullptr;
PyObject* g_out_of_memory_type = nullptr;

void translate(const std::exception_ptr& p, void*) {
  try {
    std::rethrow_exception(p);
  } catch (const xgpu::Error& e) {
    PyObject* type = e.code() == xgpu::Errc::out_of_memory ? g_out_of_memory_type : g_error_type;
    if (type == nullptr) {
      PyErr_SetString(PyExc_RuntimeError, e.what());
      return;
    }
    nb::object error =
        nb::borrow(type)(e.what(), xgpu::errc_name(e.code()), e.call(), e.native_name(),
                         e.build_log(), e.build_options(), e.device());
    PyErr_SetObject(type, error.ptr());
  }
}

}  // namespace

void set_python_error() noexcept {
  try {
    throw;
  } catch (nb::python_error& e) {
    e.restore();
  } catch (const nb::builtin_exception& e) {
    using Type = nb::exception_type;
    PyObject* type = e.type() == Type::type_error     ? PyExc_TypeError
                     : e.type() == Type::value_error  ? PyExc_ValueError
                     : e.type() == Type::index_error  ? PyExc_IndexError
                     : e.type() == Type::buffer_error ? PyExc_BufferError
                                                      : PyExc_RuntimeError;
    PyErr_SetString(type, e.what());
  } catch (const xgpu::Error&) {
    translate(std::current_exception(), nullptr);
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  } catch (...) {
    PyErr_SetString(PyExc_RuntimeError, "xgpu: an unknown C++ exception");
  }
}

namespace {

xgpu::Context& context_of(std::optional<std::size_t> device) {
  return device_state(device ? *device : current_device()).context;
}

nb::dict memory_stats(std::optional<std::size_t> device) {
  const xgpu::MemoryStats s = context_of(device).memory_stats();
  nb::dict d;
  d["allocated"] = s.allocated;
  d["reserved"] = s.reserved;
  d["peak_allocated"] = s.peak_allocated;
  d["peak_reserved"] = s.peak_reserved;
  d["active_blocks"] = s.active_blocks;
  d["num_allocs"] = s.num_allocs;
  d["num_frees"] = s.num_frees;
  d["num_ooms"] = s.num_ooms;
  d["num_retries"] = s.num_retries;
  d["limit"] = s.limit;
  return d;
}

nb::dict cache_stats() {
  const xgpu::CacheStats s = xgpu::cache_stats();
  nb::dict d;
  d["hits"] = s.hits;
  d["misses"] = s.misses;
  d["stores"] = s.stores;
  d["store_failures"] = s.store_failures;
  d["bad_entries"] = s.bad_entries;
  d["healed"] = s.healed;
  d["read_only_skips"] = s.read_only_skips;
  d["evictions"] = s.evictions;
  return d;
}

// A named span of host time while it lives (xgpu.trace.range).
struct TraceRange {
  explicit TraceRange(std::string name) : name(std::move(name)) {}
  std::string name;
  std::optional<xgpu::trace::range> span;
};

// Seconds per launch of `kernel` (one float buffer argument) from C++, on the kernel's own
// stream: the same launch as Python's, without Python in between.
double cpp_launch_seconds(const PyKernel& kernel, const BufferPtr& buffer, std::size_t global,
                          std::size_t launches, bool wait) {
  const auto& typed = std::get<xgpu::Buffer<float>>(buffer->buffer);
  xgpu::Queue& queue = kernel.home->queue();
  nb::gil_scoped_release release;
  queue.finish();
  const auto start = std::chrono::steady_clock::now();
  for (std::size_t i = 0; i < launches; ++i) {
    xgpu::Event e = queue.launch(kernel.kernel, xgpu::Range{global}, typed);
    if (wait) e.wait();
  }
  // Enqueue-only: the loop's time; the drain after it is not counted (as in xgpu.bench).
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  queue.finish();
  return seconds / static_cast<double>(launches);
}

}  // namespace

void bind_misc(nb::module_& m) {
  nb::register_exception_translator(&translate);
  m.def(
      "set_error_types",
      [](nb::handle error, nb::handle out_of_memory) {
        g_error_type = error.inc_ref().ptr();
        g_out_of_memory_type = out_of_memory.inc_ref().ptr();
      },
      nb::arg("error"), nb::arg("out_of_memory"));

  m.def("memory_stats", &memory_stats, nb::arg("device") = nb::none());
  m.def(
      "reset_peak_memory_stats",
      [](std::optional<std::size_t> device) { context_of(device).reset_peak_stats(); },
      nb::arg("device") = nb::none());
  m.def(
      "set_memory_limit",
      [](std::uint64_t bytes, std::optional<std::size_t> device) {
        context_of(device).set_memory_limit(bytes);
      },
      nb::arg("bytes"), nb::arg("device") = nb::none());
  m.def(
      "empty_cache",
      [] {
        const std::vector<DeviceState*> states = made_device_states();
        nb::gil_scoped_release release;
        for (DeviceState* state : states) state->context.empty_cache();
      },
      "Returns every unused cached block of the package's contexts to the driver.");

  m.def("cache_stats", &cache_stats);
  m.def(
      "cache_flush", [] { xgpu::cache::flush(); }, nb::call_guard<nb::gil_scoped_release>());
  m.def("add_profile", &xgpu::add_profile, nb::arg("profile"), nb::arg("backing") = "");

  m.def("trace_start", &xgpu::trace::start, nb::arg("path"));
  m.def("trace_stop", &xgpu::trace::stop, nb::call_guard<nb::gil_scoped_release>());
  m.def("trace_flush", &xgpu::trace::flush, nb::call_guard<nb::gil_scoped_release>());
  m.def("trace_running", &xgpu::trace::running);
  nb::class_<TraceRange>(m, "TraceRange")
      .def(nb::init<std::string>(), nb::arg("name"))
      .def("begin", [](TraceRange& r) { r.span.emplace(r.name); })
      .def("end", [](TraceRange& r) { r.span.reset(); });

  m.def("version", [] { return std::string(xgpu::version()); });
  m.def("cpp_launch_seconds", &cpp_launch_seconds, nb::arg("kernel"), nb::arg("buffer"),
        nb::arg("global_size"), nb::arg("launches"), nb::arg("wait"));
}

}  // namespace xgpu_python
