// Named loggers on one stderr sink; XGPU_LOG_LEVEL sets their level, default warn.
#include "log.hpp"

#include <spdlog/sinks/stdout_color_sinks.h>

#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>

#include "module.hpp"
#include "xgpu/error.hpp"
#include "xgpu/log.hpp"

namespace xgpu::detail {
namespace {

struct Loggers {
  std::mutex mutex;
  std::map<std::string, std::shared_ptr<spdlog::logger>> by_name;
  std::shared_ptr<spdlog::sinks::stderr_color_sink_mt> sink =
      std::make_shared<spdlog::sinks::stderr_color_sink_mt>();
  spdlog::level::level_enum level = initial_level();

  static spdlog::level::level_enum initial_level() {
    const char* text = std::getenv("XGPU_LOG_LEVEL");
    if (!text || !*text) return spdlog::level::warn;
    auto level = spdlog::level::from_str(text);
    // from_str maps unknown words to "off"; a typo should not silence warnings.
    if (level == spdlog::level::off && std::string(text) != "off") return spdlog::level::warn;
    return level;
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
