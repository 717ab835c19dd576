// The extension module xgpu._mpi: the C++ half of xgpu.mpi (python/xgpu/mpi.py), over
// libxgpu-mpi. Built only when CMake finds MPI. It takes the arrays (_xgpu.Buffer) and streams
// (_xgpu.Stream) of the extension xgpu._xgpu, whose classes nanobind shares between the two
// modules, and mpi4py's communicators as Fortran handles (Comm.py2f()), so it needs none of
// mpi4py's headers. Only the inline parts of common.hpp are used here: its functions live in
// _xgpu, whose state (the package's contexts and streams) must stay one.
#include <nanobind/nanobind.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <iterator>
#include <optional>
#include <string>
#include <vector>
#include <xgpu/mpi.hpp>

#include "common.hpp"

namespace xgpu_python {
namespace {

namespace mpi = xgpu::mpi;
constexpr mpi::Op kOps[] = {mpi::Op::sum, mpi::Op::min, mpi::Op::max, mpi::Op::prod};

/// The collectives' element type of an array's, if they take it.
std::optional<mpi::DataType> data_type(DType dtype) {
  switch (dtype) {
    case DType::float16:
      return mpi::DataType::f16;
    case DType::float32:
      return mpi::DataType::f32;
    case DType::float64:
      return mpi::DataType::f64;
    case DType::int32:
      return mpi::DataType::i32;
    case DType::int64:
      return mpi::DataType::i64;
    case DType::uint32:
      return mpi::DataType::u32;
    default:
      return std::nullopt;
  }
}

/// One array of a collective: its memory, element type and the queue the call runs on. A rank
/// whose Python arguments were refused (xgpu/mpi.py passes None) still takes part, with an
/// empty queue that libxgpu-mpi refuses: the ranks then agree that the call failed, and every
/// rank raises instead of waiting for this one.
struct Operand {
  xgpu::Queue queue;
  xgpu::UntypedBuffer memory;
  mpi::DataType type = mpi::DataType::f32;
};

Operand operand(const DeviceBuffer* buffer, const StreamPtr& stream) {
  Operand o;
  if (buffer == nullptr || !stream) return o;
  const std::optional<mpi::DataType> type = data_type(buffer->dtype);
  if (!type) return o;  // mpi.py refuses these before; an empty queue refuses them again
  o.queue = stream->queue();
  o.memory = std::visit([](const auto& typed) { return typed.untyped(); }, buffer->buffer);
  o.type = *type;
  return o;
}

mpi::Op op_of(int code) {
  // Out of range: a value the library refuses (on every rank, as any refused argument).
  return code >= 0 && code < static_cast<int>(std::size(kOps)) ? kOps[code]
                                                               : static_cast<mpi::Op>(~0u);
}

std::string library_version() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int length = 0;
  MPI_Get_library_version(text, &length);
  return std::string(text);  // up to the NUL, which Open MPI counts in `length`
}

}  // namespace
}  // namespace xgpu_python

NB_MODULE(_mpi, m) {
  using namespace xgpu_python;
  m.doc() = "xgpu.mpi's C++ side, over libxgpu-mpi; use xgpu.mpi.";

  nb::class_<mpi::Comm>(m, "Comm", "libxgpu-mpi's handle of a communicator (xgpu's duplicate).")
      .def_static("world", &mpi::Comm::world, nb::call_guard<nb::gil_scoped_release>())
      .def_static(
          "from_fortran", [](int handle) { return mpi::Comm::from_fortran(handle); },
          nb::arg("handle"), nb::call_guard<nb::gil_scoped_release>(),
          "A Comm over mpi4py's comm.py2f(): collective over it (it is duplicated).")
      .def_prop_ro("rank", &mpi::Comm::rank)
      .def_prop_ro("size", &mpi::Comm::size);

  m.def("ops", [] {
    std::vector<std::string> names;
    for (mpi::Op op : kOps) names.emplace_back(mpi::to_string(op));
    return names;
  });
  m.def(
      "dtype_codes",
      [] {
        std::vector<int> codes;
        for (int code = 0; code < kDTypeCount; ++code) {
          if (data_type(static_cast<DType>(code))) codes.push_back(code);
        }
        return codes;
      },
      "The element types (python/src/common.hpp's numbers) the collectives take.");
  m.def("library_version", &library_version);
  m.def(
      "release",
      [] {
        // Env's destructor waits for xgpu's pending collectives and frees its communicators;
        // MPI itself is mpi4py's (already initialised), so this Env does not finalise it.
        mpi::Env env;
      },
      nb::call_guard<nb::gil_scoped_release>());

  m.def(
      "select_device",
      [](const mpi::Comm& comm, const std::string& selector) {
        return mpi::select_device(comm, selector).index();
      },
      nb::arg("comm"), nb::arg("selector"), nb::call_guard<nb::gil_scoped_release>());

  // Each collective: buffer None (with stream None) when xgpu/mpi.py refused this rank's
  // arguments (see Operand).
  m.def(
      "allreduce",
      [](const DeviceBuffer* buffer, StreamPtr stream, int op, const mpi::Comm& comm) {
        Operand o = operand(buffer, stream);
        nb::gil_scoped_release release;
        mpi::allreduce(o.queue, o.memory, o.type, op_of(op), comm);
      },
      nb::arg("buffer").none(), nb::arg("stream").none(), nb::arg("op"), nb::arg("comm"));
  m.def(
      "reduce",
      [](const DeviceBuffer* buffer, StreamPtr stream, int op, int root, const mpi::Comm& comm) {
        Operand o = operand(buffer, stream);
        nb::gil_scoped_release release;
        mpi::reduce(o.queue, o.memory, o.type, op_of(op), root, comm);
      },
      nb::arg("buffer").none(), nb::arg("stream").none(), nb::arg("op"), nb::arg("root"),
      nb::arg("comm"));
  m.def(
      "broadcast",
      [](const DeviceBuffer* buffer, StreamPtr stream, int root, const mpi::Comm& comm) {
        Operand o = operand(buffer, stream);
        nb::gil_scoped_release release;
        mpi::broadcast(o.queue, o.memory, o.type, root, comm);
      },
      nb::arg("buffer").none(), nb::arg("stream").none(), nb::arg("root"), nb::arg("comm"));
  m.def(
      "allgather",
      [](const DeviceBuffer* send, const DeviceBuffer* recv, StreamPtr stream,
         const mpi::Comm& comm) {
        Operand s = operand(send, stream);
        Operand r = operand(recv, stream);
        nb::gil_scoped_release release;
        mpi::allgather(s.queue, s.memory, r.memory, s.type, comm);
      },
      nb::arg("send").none(), nb::arg("recv").none(), nb::arg("stream").none(), nb::arg("comm"));
}
