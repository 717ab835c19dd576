// How a failure travels inside a module and how it leaves it: every entry runs under
// guard(), a failure throws Failure after recording its text for last_error(), and guard()
// turns that (or any stray C++ exception) into a status at the C boundary.
#pragma once

#include <exception>
#include <string>

#include "xgpu/backend.h"

namespace xgpu::common {

/// A failure whose text is already recorded; it only carries the status back to guard().
/// Deliberately not a std::exception, so guard() cannot mistake it for a stray one.
struct Failure {
  xgpu_status status;
};

/// Records the text last_error() reports on this thread. Never throws.
void set_last_error(const char* text) noexcept;
/// The text recorded by the last failure on this thread ("" when none).
const std::string& last_error_text() noexcept;

/// The module's last_error() entry: copies this thread's text in the (capacity, size_ret)
/// idiom. Quiet on a small buffer: recording "buffer too small" would erase the text asked
/// for.
xgpu_status last_error(char* buffer, size_t capacity, size_t* size_ret) noexcept;

/// Records `text` and throws Failure{status}.
[[noreturn]] void fail(xgpu_status status, const std::string& text);

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

}  // namespace xgpu::common
