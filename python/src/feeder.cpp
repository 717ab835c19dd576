// xgpu::Feeder over a Python function (xgpu.Feeder, python/xgpu/_feeder.py). The feeder's worker
// threads take the GIL only to call the function and copy what it returns into the pinned slot;
// every call into the feeder (next, close) releases the GIL first. The lock order is therefore
// always the feeder's mutex, then the GIL (a worker may drop a Python exception under the
// mutex), never the reverse.
#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/shared_ptr.h>

#include <atomic>
#include <cstring>
#include <optional>
#include <xgpu/feeder.hpp>

#include "common.hpp"
#include "streams.hpp"

namespace xgpu_python {
namespace {

// The feeder whose fill function this thread is running (its stop flag), if any.
thread_local const void* t_filling = nullptr;

bool interpreter_finalizing() {
#if PY_VERSION_HEX >= 0x030D0000
  return Py_IsFinalizing() != 0;
#else
  return _Py_IsFinalizing() != 0;
#endif
}

// Sample indices as a NumPy int64 array that owns a copy.
nb::object int64_array(const std::size_t* values, std::size_t count) {
  auto* owned = new std::vector<std::int64_t>(values, values + count);
  nb::capsule keep(owned,
                   [](void* p) noexcept { delete static_cast<std::vector<std::int64_t>*>(p); });
  const std::size_t shape[1] = {count};
  return nb::cast(nb::ndarray<nb::numpy, std::int64_t, nb::ndim<1>>(owned->data(), 1, shape, keep));
}

/// What the Python function is given: the batch's place and its samples.
struct PyRequest {
  std::size_t index = 0, epoch = 0, capacity = 0;
  nb::object samples;  ///< NumPy int64 array
};

/// A batch on the device, as next() hands it over.
struct PyBatch {
  std::size_t index = 0, epoch = 0, bytes = 0;
  nb::object samples;
  xgpu::FeederBatch batch;
  StreamPtr stream;
  PyEvent ready;

  /// The first `bytes` bytes as an array of `code`'s dtype, on the compute stream.
  BufferPtr buffer(int code) const {
    const DType dtype = dtype_from_int(code);
    const std::size_t size = element_size(dtype);
    if (bytes % size != 0)
      throw nb::value_error(("xgpu: the batch's " + std::to_string(bytes) +
                             " bytes are not a whole number of " + dtype_name(dtype) + " elements")
                                .c_str());
    auto result = std::make_shared<DeviceBuffer>();
    result->dtype = dtype;
    result->home = stream;
    with_storage(dtype, [&](auto tag) {
      using T = typename decltype(tag)::type;
      result->buffer = batch.as<T>().view(0, bytes / size);
    });
    return result;
  }
};

class PyFeeder {
 public:
  PyFeeder(nb::object fill, const StreamPtr& stream, const xgpu::FeederOptions& options)
      : fill_(std::make_shared<nb::object>(std::move(fill))),
        stopping_(std::make_shared<std::atomic<bool>>(false)),
        stream_(stream) {
    // The function and the flag are shared with the workers: they outlive no PyFeeder (close
    // joins the workers before the destructor lets them go).
    auto fill_fn = fill_;
    auto stopping = stopping_;
    feeder_.emplace(stream->queue(), options,
                    [fill_fn, stopping](const xgpu::FeederRequest& r) -> std::size_t {
                      return call_python(*fill_fn, *stopping, r);
                    });
    size_ = feeder_->size();
    per_epoch_ = feeder_->batches_per_epoch();
  }
  ~PyFeeder() { close(); }
  PyFeeder(const PyFeeder&) = delete;
  PyFeeder& operator=(const PyFeeder&) = delete;

  std::optional<PyBatch> next() {
    if (!feeder_) return std::nullopt;  // closed
    std::optional<xgpu::FeederBatch> batch;
    try {
      nb::gil_scoped_release release;
      batch = feeder_->next();
    } catch (const xgpu::Error& error) {
      raise_fill_error(error);
      throw;
    }
    if (!batch) return std::nullopt;
    ++delivered_;
    PyBatch result;
    result.index = batch->index;
    result.epoch = batch->epoch;
    result.bytes = batch->bytes;
    result.samples = int64_array(batch->samples.data(), batch->samples.size());
    result.ready = PyEvent{batch->ready, stream_->device_index()};
    result.stream = stream_;
    result.batch = std::move(*batch);
    return result;
  }

  /// Joins every thread, then lets go of the feeder (with the exception a fill raised, whose
  /// traceback may hold this feeder) and of the function (which may too): cycles through C++
  /// that the garbage collector cannot see.
  void close() {
    if (!feeder_) return;
    if (t_filling == stopping_.get()) {  // joining the workers would wait for this one
      PyErr_SetString(PyExc_RuntimeError,
                      "xgpu.Feeder.close() called from its own fill function, which it would "
                      "wait for; close it from another thread once the call returns");
      throw nb::python_error();
    }
    stopping_->store(true);
    {
      nb::gil_scoped_release release;
      feeder_->close();
    }
    feeder_.reset();
    *fill_ = nb::object();
  }

  PyObject* fill() const { return fill_->ptr(); }  // nullptr once closed

  std::size_t size() const { return size_; }
  std::size_t batches_per_epoch() const { return per_epoch_; }

 private:
  // On a worker thread, without the GIL.
  static std::size_t call_python(const nb::object& fill, const std::atomic<bool>& stopping,
                                 const xgpu::FeederRequest& r) {
    // Closing, or the interpreter going away: no Python code may run (taking the GIL during
    // finalization would end or hang this thread).
    if (stopping.load() || interpreter_finalizing())
      throw xgpu::Error(xgpu::Errc::user_function, "the feeder is closing", "xgpu.Feeder");
    nb::gil_scoped_acquire gil;
    // A reference of this thread's own for the whole call: the feeder is then reachable while
    // its worker runs Python, so a collection on this thread never clears (and joins) it.
    const nb::object callee = fill;
    struct Filling {
      explicit Filling(const void* feeder) { t_filling = feeder; }
      ~Filling() { t_filling = nullptr; }
    } filling(&stopping);
    try {
      PyRequest request{r.index, r.epoch, r.capacity, int64_array(r.samples, r.count)};
      nb::object result = callee(nb::cast(std::move(request)));
      Py_buffer view;
      if (PyObject_GetBuffer(result.ptr(), &view, PyBUF_C_CONTIGUOUS) != 0) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError,
                     "xgpu.Feeder: the fill function returned %s for batch %zu of epoch %zu; it "
                     "returns bytes-like data (bytes, a C-contiguous NumPy array)",
                     Py_TYPE(result.ptr())->tp_name, r.index, r.epoch);
        throw nb::python_error();
      }
      const auto bytes = static_cast<std::size_t>(view.len);
      if (bytes > r.capacity) {
        PyBuffer_Release(&view);
        PyErr_Format(PyExc_ValueError,
                     "xgpu.Feeder: the fill function returned %zu bytes for batch %zu of epoch "
                     "%zu, more than batch_bytes (%zu)",
                     bytes, r.index, r.epoch, r.capacity);
        throw nb::python_error();
      }
      if (bytes) std::memcpy(r.data, view.buf, bytes);
      PyBuffer_Release(&view);
      return bytes;
    } catch (nb::python_error& error) {
      error.what();  // its message made now, under the GIL, for next() to read without it
      throw;
    }
  }

  // A fill function's Python exception, raised again in next() as itself (its type kept) with
  // a note naming the batch; any other failure stays the xgpu.Error it is.
  void raise_fill_error(const xgpu::Error& error) {
    try {
      std::rethrow_if_nested(error);
    } catch (const nb::python_error& python) {
      nb::handle exception = python.value();
      if (!noted_) {
        noted_ = true;
        const std::string note = "xgpu.Feeder: raised by the fill function for batch " +
                                 std::to_string(delivered_ % per_epoch_) + " of epoch " +
                                 std::to_string(delivered_ / per_epoch_);
        exception.attr("add_note")(nb::str(note.c_str()));
      }
      PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(exception.ptr())), exception.ptr());
      throw nb::python_error();
    } catch (...) {
      // Not a Python exception: the Error itself is the clearer message.
    }
  }

  std::shared_ptr<nb::object> fill_;
  std::shared_ptr<std::atomic<bool>> stopping_;
  StreamPtr stream_;
  std::optional<xgpu::Feeder> feeder_;
  std::size_t size_ = 0, per_epoch_ = 0;
  std::size_t delivered_ = 0;  ///< batches next() returned
  bool noted_ = false;
};

// The function held from C++, shown to the garbage collector: a feeder whose function refers
// back to it (a closure, a bound method) is collected, closed first.
int feeder_traverse(PyObject* self, visitproc visit, void* arg) {
  Py_VISIT(Py_TYPE(self));
  if (!nb::inst_ready(self)) return 0;
  Py_VISIT(nb::inst_ptr<PyFeeder>(self)->fill());
  return 0;
}

int feeder_clear(PyObject* self) {
  if (nb::inst_ready(self)) nb::inst_ptr<PyFeeder>(self)->close();
  return 0;
}

PyType_Slot feeder_slots[] = {{Py_tp_traverse, reinterpret_cast<void*>(feeder_traverse)},
                              {Py_tp_clear, reinterpret_cast<void*>(feeder_clear)},
                              {0, nullptr}};

}  // namespace

void bind_feeder(nb::module_& m) {
  nb::class_<PyRequest>(m, "FeederRequest",
                        "A batch for the fill function: index, epoch, samples, capacity.")
      .def_ro("index", &PyRequest::index)
      .def_ro("epoch", &PyRequest::epoch)
      .def_ro("capacity", &PyRequest::capacity)
      .def_ro("samples", &PyRequest::samples)
      .def_prop_ro("count", [](const PyRequest& r) { return nb::len(r.samples); });
  nb::class_<PyBatch>(m, "FeederBatch")
      .def_ro("index", &PyBatch::index)
      .def_ro("epoch", &PyBatch::epoch)
      .def_ro("nbytes", &PyBatch::bytes)
      .def_ro("samples", &PyBatch::samples)
      .def_ro("ready", &PyBatch::ready)
      .def("buffer", &PyBatch::buffer, nb::arg("dtype"));
  nb::class_<PyFeeder>(m, "Feeder", nb::type_slots(feeder_slots))
      .def(
          "__init__",
          [](PyFeeder* self, nb::object fill, const StreamPtr& stream, std::size_t samples,
             std::size_t batch_size, std::size_t batch_bytes, std::size_t workers,
             std::size_t prefetch, bool drop_last, bool shuffle, std::uint64_t seed,
             std::size_t epochs) {
            xgpu::FeederOptions o;
            o.samples = samples;
            o.batch_size = batch_size;
            o.batch_bytes = batch_bytes;
            o.workers = workers;
            o.prefetch = prefetch;
            o.drop_last = drop_last;
            o.shuffle = shuffle;
            o.seed = seed;
            o.epochs = epochs;
            new (self) PyFeeder(std::move(fill), stream, o);
          },
          nb::arg("fill"), nb::arg("stream"), nb::arg("samples"), nb::arg("batch_size"),
          nb::arg("batch_bytes"), nb::arg("workers"), nb::arg("prefetch"), nb::arg("drop_last"),
          nb::arg("shuffle"), nb::arg("seed"), nb::arg("epochs"))
      .def("next", &PyFeeder::next)
      .def("close", &PyFeeder::close)
      .def("size", &PyFeeder::size)
      .def("batches_per_epoch", &PyFeeder::batches_per_epoch);
}

}  // namespace xgpu_python
