// xgpu's loggers: "xgpu", "xgpu.loader", "xgpu.cache", "xgpu.build", "xgpu.backend.<name>".
// Silent by default (warn); XGPU_LOG_LEVEL=trace|debug|info|warn|error|critical|off.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <xgpu/export.hpp>

namespace xgpu {

/// Sets the level of every xgpu logger, overriding XGPU_LOG_LEVEL. Throws
/// xgpu::Error (invalid_argument) for a name spdlog does not know.
XGPU_API void set_log_level(const std::string& level);

/// Receives each log line xgpu would print on stderr (formatted as there, without the
/// newline), from whichever thread logs, instead of stderr.
using LogHandler = std::function<void(const std::string& line)>;

/// Routes every xgpu log line (core and backend modules) to `handler` until it is replaced;
/// an empty handler restores stderr. Returns the handler it replaces, so that a caller can
/// put it back (see ScopedLogCapture). The handler must not log itself.
XGPU_API LogHandler set_log_handler(LogHandler handler);

/// While it lives, xgpu's log lines are kept (text()) instead of printed: for tools that
/// record what one step logged, e.g. `xgpu conform` for a check that breaks things on purpose.
/// Scopes nest; the capture is process-wide (every thread's lines), not per thread.
class XGPU_API ScopedLogCapture {
 public:
  ScopedLogCapture();
  ~ScopedLogCapture();
  ScopedLogCapture(const ScopedLogCapture&) = delete;
  ScopedLogCapture& operator=(const ScopedLogCapture&) = delete;
  /// The lines so far, each ending with a newline.
  std::string text() const;

 private:
  struct Lines;
  std::shared_ptr<Lines> lines_;
  LogHandler previous_;
};

}  // namespace xgpu
