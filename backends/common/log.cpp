// The host log callback, shared by every thread of the module.
#include "xgpu/common/log.hpp"

#include <cstdarg>
#include <cstddef>
#include <cstdio>
#include <mutex>

namespace xgpu::common {
namespace {

struct LogSink {
  void (*log)(void* user, int32_t level, const char* message) = nullptr;
  void* user = nullptr;
};

// Guarded by a mutex because driver threads (context error callbacks) log too.
std::mutex g_sink_mutex;
LogSink g_sink;

}  // namespace

void set_log_host(const xgpu_host_v1* host) noexcept {
  LogSink sink;
  constexpr size_t kNeeded = offsetof(xgpu_host_v1, log_user) + sizeof(void*);
  if (host != nullptr && host->struct_size >= kNeeded) sink = {host->log, host->log_user};
  std::lock_guard<std::mutex> lock(g_sink_mutex);
  g_sink = sink;
}

void log_printf(int32_t level, const char* format, ...) noexcept {
  LogSink sink;
  {
    std::lock_guard<std::mutex> lock(g_sink_mutex);
    sink = g_sink;
  }
  if (sink.log == nullptr) return;
  // Long enough for any line we write; vsnprintf truncates rather than overflows.
  char message[1024];
  va_list args;
  va_start(args, format);
  std::vsnprintf(message, sizeof(message), format, args);
  va_end(args);
  sink.log(sink.user, level, message);
}

}  // namespace xgpu::common
