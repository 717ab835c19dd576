// How a failure travels inside the module and how it leaves it: every entry runs under
// guard(), a failing OpenCL call throws Failure after recording its text for last_error(),
// and guard() turns that (or any stray C++ exception) into a status at the C boundary.
#pragma once

#include <exception>
#include <string>

#include "xgpu/backend.h"

namespace xgpu::opencl {

/// A failure whose text is already recorded; it only carries the status back to guard().
/// Deliberately not a std::exception, so guard() cannot mistake it for a stray one.
struct Failure {
  xgpu_status status;
};

/// Records the text last_error() reports on this thread. Never throws.
void set_last_error(const char* text) noexcept;
/// The text recorded by the last failure on this thread ("" when none).
const std::string& last_error_text() noexcept;

/// Records `text` and throws Failure{status}.
[[noreturn]] void fail(xgpu_status status, const std::string& text);

/// Records "function failed: CL_NAME" and throws Failure{status}.
[[noreturn]] void fail_call(int32_t status, const char* function);

/// Throws as fail_call() does unless status is CL_SUCCESS.
inline void check(int32_t status, const char* function) {
  if (status != 0) fail_call(status, function);
}

/// Runs one entry's body; no exception crosses the C boundary.
template <class F>
xgpu_status guard(F&& body) noexcept {
  try {
    return body();
  } catch (const Failure& failure) {
    return failure.status;
  } catch (const std::exception& e) {
    set_last_error(e.what());
  } catch (...) {
    set_last_error("unknown exception");
  }
  return XGPU_STATUS_MODULE_EXCEPTION;
}

}  // namespace xgpu::opencl
