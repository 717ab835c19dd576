// The thread-local last error and the helpers that record it.
#include "errors.hpp"

#include "status_names.hpp"

namespace xgpu::opencl {
namespace {

// Per thread, like errno: two threads failing at once must each read their own text.
thread_local std::string t_last_error;

}  // namespace

void set_last_error(const char* text) noexcept {
  try {
    t_last_error = text;
  } catch (...) {
    // Out of memory while recording an error: an empty text beats a terminate().
    t_last_error.clear();
  }
}

const std::string& last_error_text() noexcept { return t_last_error; }

void fail(xgpu_status status, const std::string& text) {
  set_last_error(text.c_str());
  throw Failure{status};
}

void fail_call(int32_t status, const char* function) {
  fail(status, std::string(function) + " failed: " + status_name(status));
}

}  // namespace xgpu::opencl
