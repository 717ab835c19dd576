// Named loggers on one sink, stderr unless a handler is set; XGPU_LOG_LEVEL sets their
// level, default warn.
#include "log.hpp"

#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/sink.h>
#include <spdlog/sinks/stdout_color_sinks.h>

#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>

#include "module.hpp"
#include "xgpu/common/settings.hpp"
#include "xgpu/error.hpp"
#include "xgpu/log.hpp"

namespace xgpu::detail {
namespace {

// Stderr, or the handler set with set_log_handler. The handler is called outside the lock,
// from the logging thread, so that a slow handler does not hold up other loggers' stderr.
class RoutingSink final : public spdlog::sinks::sink {
 public:
  void log(const spdlog::details::log_msg& message) override {
    LogHandler handler;
    spdlog::memory_buf_t formatted;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!handler_) {
        stderr_->log(message);
        return;
      }
      handler = handler_;
      formatter_->format(message, formatted);
    }
    std::string line(formatted.data(), formatted.size());
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
    handler(line);
  }
  void flush() override { stderr_->flush(); }
  void set_pattern(const std::string& pattern) override {
    set_formatter(std::make_unique<spdlog::pattern_formatter>(pattern));
  }
  void set_formatter(std::unique_ptr<spdlog::formatter> formatter) override {
    std::lock_guard<std::mutex> lock(mutex_);
    stderr_->set_formatter(formatter->clone());
    formatter_ = std::move(formatter);
  }
  LogHandler exchange(LogHandler handler) {
    std::lock_guard<std::mutex> lock(mutex_);
    std::swap(handler, handler_);
    return handler;
  }

 private:
  std::mutex mutex_;
  std::shared_ptr<spdlog::sinks::stderr_color_sink_mt> stderr_ =
      std::make_shared<spdlog::sinks::stderr_color_sink_mt>();
  std::unique_ptr<spdlog::formatter> formatter_ = std::make_unique<spdlog::pattern_formatter>();
  LogHandler handler_;
};

struct Loggers {
  std::mutex mutex;
  std::map<std::string, std::shared_ptr<spdlog::logger>> by_name;
  std::shared_ptr<RoutingSink> sink = std::make_shared<RoutingSink>();
  spdlog::level::level_enum level = initial_level();

  static spdlog::level::level_enum initial_level() {
    const std::string text = common::setting_text(common::Setting::log_level);
    if (text.empty()) return spdlog::level::warn;
    // from_str maps unknown words to "off"; a typo should not silence warnings (the words
    // settings.def allows are spdlog's).
    if (!common::is_allowed(common::spec(common::Setting::log_level), text))
      return spdlog::level::warn;
    return spdlog::level::from_str(text);
  }
};

Loggers& loggers() {
  static Loggers* instance = new Loggers();  // never destroyed: logging works during exit
  return *instance;
}

}  // namespace

spdlog::logger& logger(const std::string& suffix) {
  Loggers& all = loggers();
  std::string name = suffix.empty() ? "xgpu" : "xgpu." + suffix;
  std::lock_guard<std::mutex> lock(all.mutex);
  auto& slot = all.by_name[name];
  if (!slot) {
    slot = std::make_shared<spdlog::logger>(name, all.sink);
    slot->set_level(all.level);
    slot->set_pattern("[%H:%M:%S.%e] [%n] [%l] %v");
  }
  return *slot;
}

extern "C" void module_log_callback(void* user, int32_t level, const char* message) {
  const auto* module = static_cast<const Module*>(user);
  auto& log = logger("backend." + (module ? module->name : std::string("unknown")));
  int clamped = level < 0 ? 0 : (level > 4 ? 4 : level);
  log.log(static_cast<spdlog::level::level_enum>(clamped), "{}", message ? message : "");
}

}  // namespace xgpu::detail

namespace xgpu {

void set_log_level(const std::string& level) {
  auto parsed = spdlog::level::from_str(level);
  if (parsed == spdlog::level::off && level != "off") {
    throw Error(
        Errc::invalid_argument,
        "unknown log level '" + level + "': use trace, debug, info, warn, error, critical or off",
        "set_log_level");
  }
  auto& all = detail::loggers();
  std::lock_guard<std::mutex> lock(all.mutex);
  all.level = parsed;
  for (auto& [name, log] : all.by_name) log->set_level(parsed);
}

}  // namespace xgpu

namespace xgpu {

LogHandler set_log_handler(LogHandler handler) {
  return detail::loggers().sink->exchange(std::move(handler));
}

struct ScopedLogCapture::Lines {
  mutable std::mutex mutex;
  std::string text;
};

ScopedLogCapture::ScopedLogCapture() : lines_(std::make_shared<Lines>()) {
  // The lambda owns the lines too: a thread still in the handler after this scope ends
  // writes into memory that is still there.
  previous_ = set_log_handler([lines = lines_](const std::string& line) {
    std::lock_guard<std::mutex> lock(lines->mutex);
    lines->text += line + "\n";
  });
}

ScopedLogCapture::~ScopedLogCapture() { set_log_handler(std::move(previous_)); }

std::string ScopedLogCapture::text() const {
  std::lock_guard<std::mutex> lock(lines_->mutex);
  return lines_->text;
}

}  // namespace xgpu
