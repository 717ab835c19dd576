// xgpu::LossScaler for xgpu.amp.LossScaler (python/xgpu/amp.py): the scale, the unscale that
// finds infinities and NaNs on the device, the one flag read per step and the update all stay
// the C++ scaler's; this only moves arrays and streams across. Launches and the flag's read
// run without the GIL.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/vector.h>

#include <xgpu/loss_scaler.hpp>

#include "common.hpp"
#include "streams.hpp"

namespace xgpu_python {
namespace {

// Calls f with the typed buffer when the array holds a floating type; TypeError naming the dtype
// otherwise.
template <class F>
void with_floating(const char* call, const DeviceBuffer& buffer, F&& f) {
  with_storage(buffer.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (xgpu::is_floating_type_v<T>) {
      f(std::get<xgpu::Buffer<T>>(buffer.buffer));
    } else {
      throw nb::type_error((std::string("xgpu.amp.LossScaler.") + call + ": an array of " +
                            dtype_name(buffer.dtype) +
                            "; it takes float16, bfloat16, float32 and float64 arrays")
                               .c_str());
    }
  });
}

}  // namespace

void bind_amp(nb::module_& m) {
  nb::class_<xgpu::LossScaler>(m, "LossScaler")
      .def(
          "__init__",
          [](xgpu::LossScaler* self, float init_scale, float growth_factor, float backoff_factor,
             int growth_interval, bool enabled) {
            xgpu::LossScalerOptions options;
            options.init_scale = init_scale;
            options.growth_factor = growth_factor;
            options.backoff_factor = backoff_factor;
            options.growth_interval = growth_interval;
            options.enabled = enabled;
            new (self) xgpu::LossScaler(options);
          },
          nb::arg("init_scale"), nb::arg("growth_factor"), nb::arg("backoff_factor"),
          nb::arg("growth_interval"), nb::arg("enabled"))
      .def("get_scale", &xgpu::LossScaler::get_scale)
      .def("scale_value", [](const xgpu::LossScaler& s, float loss) { return s.scale(loss); })
      .def(
          "scale_array",
          [](const xgpu::LossScaler& s, const BufferPtr& loss, std::optional<StreamPtr> given) {
            StreamPtr stream = stream_for(*loss, given ? *given : nullptr);
            PyEvent event{xgpu::Event(), stream->device_index()};
            with_floating("scale", *loss, [&](const auto& typed) {
              nb::gil_scoped_release release;
              event.event = s.scale(stream->queue(), typed);
            });
            return event;
          },
          nb::arg("loss"), nb::arg("stream") = nb::none())
      .def(
          "unscale",
          [](xgpu::LossScaler& s, const std::vector<BufferPtr>& grads,
             std::optional<StreamPtr> given) {
            if (grads.empty()) return;
            // One stream for the step: the given one, else the first array's.
            StreamPtr stream = stream_for(*grads.front(), given ? *given : nullptr);
            for (const BufferPtr& grad : grads)  // every type checked before any launch
              with_floating("unscale", *grad, [](const auto&) {});
            for (const BufferPtr& grad : grads) {
              with_floating("unscale", *grad, [&](const auto& typed) {
                nb::gil_scoped_release release;
                s.unscale(stream->queue(), typed);
              });
            }
          },
          nb::arg("grads"), nb::arg("stream") = nb::none())
      .def("step_ok", &xgpu::LossScaler::step_ok, nb::call_guard<nb::gil_scoped_release>())
      .def("update", &xgpu::LossScaler::update, nb::call_guard<nb::gil_scoped_release>())
      .def("growth_tracker", &xgpu::LossScaler::growth_tracker)
      .def("is_enabled", &xgpu::LossScaler::is_enabled)
      .def("load_state", &xgpu::LossScaler::load_state, nb::arg("scale"), nb::arg("growth_tracker"))
      .def("options", [](const xgpu::LossScaler& s) {
        const xgpu::LossScalerOptions& o = s.options();
        return nb::make_tuple(o.init_scale, o.growth_factor, o.backoff_factor, o.growth_interval,
                              o.enabled);
      });
}

}  // namespace xgpu_python
