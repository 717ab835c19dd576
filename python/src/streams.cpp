// xgpu.Stream (an xgpu::Queue) and xgpu.Event, with torch.cuda's names: synchronize,
// wait_event, wait_stream, record_event, query, elapsed_time. Every wait releases the GIL.
#include "streams.hpp"

#include <nanobind/stl/optional.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>

#include <algorithm>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

#include "common.hpp"

namespace xgpu_python {
namespace {

// Every stream made, for synchronize(device): weak, so that a dropped stream goes.
std::mutex g_streams_mutex;
std::vector<std::weak_ptr<Stream>>* g_streams = new std::vector<std::weak_ptr<Stream>>;

void remember(const StreamPtr& stream) {
  std::lock_guard<std::mutex> lock(g_streams_mutex);
  g_streams->erase(std::remove_if(g_streams->begin(), g_streams->end(),
                                  [](const std::weak_ptr<Stream>& s) { return s.expired(); }),
                   g_streams->end());
  g_streams->push_back(stream);
}

std::vector<StreamPtr> streams_of(std::size_t device) {
  std::vector<StreamPtr> found{device_state(device).default_stream};
  std::lock_guard<std::mutex> lock(g_streams_mutex);
  for (const auto& weak : *g_streams) {
    if (StreamPtr stream = weak.lock(); stream && stream->device_index() == device)
      found.push_back(stream);
  }
  return found;
}

StreamPtr new_stream(nb::handle device, bool profiling) {
  const std::size_t index = device_index_of(device);
  DeviceState& state = device_state(index);
  auto stream = std::make_shared<Stream>(state.context.queue(xgpu::QueueOptions{profiling}), index,
                                         static_cast<std::uint64_t>(index));
  remember(stream);
  return stream;
}

PyEvent marker_of(const StreamPtr& stream) {
  return PyEvent{stream->queue().marker(), stream->device_index()};
}

// A marker asks the stream: it completes once everything before it has. The driver runs it
// shortly on an idle stream, though not at once (a CPU driver's worker thread has to be
// scheduled, which on a loaded machine took longer than a fraction of a millisecond), so the
// answer is the
// marker's status after a poll of at most 20 ms: a busy stream answers False after that
// bound, never after its pending work.
bool query_stream(Stream& s) {
  const xgpu::Event marker = s.queue().marker();
  s.queue().flush();
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(20);
  do {
    if (marker.status() == xgpu::EventStatus::complete) return true;
    std::this_thread::yield();
  } while (std::chrono::steady_clock::now() < deadline);
  return false;
}

double elapsed_ms(const PyEvent& start, const PyEvent& end) {
  if (!start.event || !end.event)
    throw nb::value_error("xgpu: Event.elapsed_time needs two recorded events");
  // A marker's timestamps are all the moment everything before it had completed.
  end.event.wait();
  const xgpu::EventTimes a = start.event.profile(), b = end.event.profile();
  return (static_cast<double>(b.end) - static_cast<double>(a.end)) / 1e6;
}

}  // namespace

StreamPtr resolve_stream(const std::optional<StreamPtr>& given) {
  if (given && *given) return *given;
  return current_stream(current_device());
}

void bind_streams(nb::module_& m) {
  nb::class_<Stream>(m, "Stream",
                     "An in-order queue of commands on one device (torch.cuda.Stream's names): "
                     "xgpu.Stream(device=None, profiling=True).")
      .def(nb::new_(&new_stream), nb::arg("device") = nb::none(), nb::arg("profiling") = true)
      .def_prop_ro("device", &Stream::device_index, "The device's index in xgpu.devices().")
      .def_prop_ro("profiling", [](Stream& s) { return s.queue().profiling(); })
      .def_prop_ro("context_id", &Stream::context_id,
                   "Which context: the device index for the package's, larger for a group's.")
      .def(
          "synchronize", [](Stream& s) { s.queue().finish(); },
          nb::call_guard<nb::gil_scoped_release>(),
          "Blocks until every command of the stream has completed.")
      .def(
          "wait_event", [](Stream& s, const PyEvent& e) { s.queue().wait(e.event); },
          nb::arg("event"), "Later commands of this stream start after `event` (no host wait).")
      .def(
          "wait_stream", [](Stream& s, Stream& other) { s.queue().wait(other.queue().marker()); },
          nb::arg("stream"), "Later commands of this stream start after everything `stream` has.")
      .def(
          "record_event",
          [](const StreamPtr& s, std::optional<PyEvent*> event) {
            PyEvent recorded = marker_of(s);
            if (event && *event) {
              **event = recorded;
              return recorded;
            }
            return recorded;
          },
          nb::arg("event") = nb::none(), "An Event that completes with what is enqueued so far.")
      .def("query", &query_stream, nb::call_guard<nb::gil_scoped_release>(),
           "Whether every command enqueued so far has completed (asked with a marker).")
      .def("flush", [](Stream& s) { s.queue().flush(); })
      .def("__repr__", [](Stream& s) {
        return "<xgpu.Stream on device " + std::to_string(s.device_index()) + ">";
      });

  nb::class_<PyEvent>(m, "Event", "A point in a stream: a command's completion.")
      .def(
          "__init__", [](PyEvent* e, bool) { new (e) PyEvent(); }, nb::arg("enable_timing") = false,
          "An event to record(); timing needs a profiling stream (the default).")
      .def_prop_ro("device", [](const PyEvent& e) { return e.device; })
      .def(
          "record",
          [](PyEvent& e, std::optional<StreamPtr> stream) {
            e = marker_of(resolve_stream(stream));
          },
          nb::arg("stream") = nb::none(),
          "Records the event on `stream` (default: the current stream).")
      .def(
          "synchronize", [](const PyEvent& e) { e.event.wait(); },
          nb::call_guard<nb::gil_scoped_release>(), "Blocks until the event has completed.")
      .def(
          "wait", [](const PyEvent& e) { e.event.wait(); },
          nb::call_guard<nb::gil_scoped_release>(), "The same as synchronize().")
      .def(
          "query",
          [](const PyEvent& e) {
            return !e.event || e.event.status() == xgpu::EventStatus::complete;
          },
          "Whether the event has completed (an event never recorded has).")
      .def("elapsed_time", &elapsed_ms, nb::arg("end"), nb::call_guard<nb::gil_scoped_release>(),
           "Milliseconds from this event to `end` (events of profiling streams).")
      .def_prop_ro("recorded", [](const PyEvent& e) { return static_cast<bool>(e.event); })
      .def("__repr__", [](const PyEvent& e) {
        return e.event ? "<xgpu.Event " + e.event.command() + ">"
                       : std::string("<xgpu.Event (not recorded)>");
      });

  m.def(
      "current_stream",
      [](std::optional<std::size_t> device) {
        return current_stream(device ? *device : current_device());
      },
      nb::arg("device") = nb::none());
  m.def(
      "set_stream",
      [](const StreamPtr& stream) {
        StreamPtr previous = current_stream(stream->device_index());
        set_current_stream(stream->device_index(), stream);
        return previous;
      },
      nb::arg("stream"), "Makes `stream` current on its device; returns the stream it replaced.");
  m.def(
      "synchronize",
      [](std::optional<std::size_t> device) {
        const std::vector<StreamPtr> streams = streams_of(device ? *device : current_device());
        nb::gil_scoped_release release;
        for (const StreamPtr& stream : streams) stream->queue().finish();
      },
      nb::arg("device") = nb::none());
}

}  // namespace xgpu_python
