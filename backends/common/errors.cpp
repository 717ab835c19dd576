// The thread-local last error and the helpers that record it.
#include "xgpu/common/errors.hpp"

#include "xgpu/common/out_param.hpp"

namespace xgpu::common {
namespace {

// Per thread, like errno: two threads failing at once must each read their own text.
// Each module links its own copy of this library, so each module has its own text.
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

xgpu_status last_error(char* buffer, size_t capacity, size_t* size_ret) noexcept {
  return copy_out_quiet(t_last_error.c_str(), t_last_error.size() + 1, buffer, capacity, size_ret);
}

void fail(xgpu_status status, const std::string& text) {
  set_last_error(text.c_str());
  throw Failure{status};
}

}  // namespace xgpu::common
