// A timeline of what xgpu did, as a Chrome trace-event JSON file that Perfetto
// (ui.perfetto.dev) and chrome://tracing open: one process per device, one track per queue,
// every build, copy, fill and launch, memory counters, and ranges the program names.
// XGPU_TRACE=path starts one at the first xgpu call that could be traced; start() and
// stop() do the same from code. See docs/trace.md.
#pragma once

#include <string>
#include <xgpu/export.hpp>

namespace xgpu::trace {

/// Starts writing a trace to `path` (a trace already running is stopped first). Throws
/// Errc::invalid_argument naming the path when it cannot be opened for writing.
XGPU_API void start(const std::string& path);
/// Writes the commands still pending (waiting for them), closes the JSON and the file.
/// Nothing happens when no trace is running.
XGPU_API void stop();
/// Writes what is buffered to the file (a crash after this still leaves those events).
XGPU_API void flush();
/// True while a trace is being written.
XGPU_API bool running() noexcept;

/// A named span of host time on the calling thread's track of the "host" process, from
/// construction to destruction. Costs one relaxed load when no trace is running.
class XGPU_API range {
 public:
  explicit range(std::string name);
  ~range();
  range(const range&) = delete;
  range& operator=(const range&) = delete;

 private:
  std::string name_;
  double begin_us_ = -1;  ///< negative: no trace was running at construction
};

}  // namespace xgpu::trace
