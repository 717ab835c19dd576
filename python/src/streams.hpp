// xgpu.Event, shared by the launches and copies that return one, and the stream an operation
// given `stream=None` runs on.
#pragma once

#include <optional>

#include "common.hpp"

namespace xgpu_python {

/// An xgpu::Event and the device it belongs to (an empty Event: not recorded, complete).
struct PyEvent {
  xgpu::Event event;
  std::size_t device = 0;
};

/// `given` when set, else the current stream of the current device.
StreamPtr resolve_stream(const std::optional<StreamPtr>& given);

}  // namespace xgpu_python
