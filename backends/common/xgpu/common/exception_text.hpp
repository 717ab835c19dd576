// The text of an exception caught as a std::exception_ptr (from a worker thread, to be
// reported by the thread that waits for it). Header-only: the libraries built on the public
// API (the algorithms, the DeviceGroup) use it too.
#pragma once

#include <exception>
#include <string>

namespace xgpu::common {

/// What `error` says: its what(), or a phrase that says it is not a std::exception.
inline std::string exception_text(const std::exception_ptr& error) {
  try {
    std::rethrow_exception(error);
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
    return "an exception that is not a std::exception";
  }
}

}  // namespace xgpu::common
