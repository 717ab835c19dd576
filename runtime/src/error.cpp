// xgpu::Error: what() is composed once from the parts, so every caller sees the same text.
#include "xgpu/error.hpp"

namespace xgpu {

const char* errc_name(Errc code) noexcept {
  switch (code) {
#define XGPU_ERRC(id, name, meaning) \
  case Errc::id:                     \
    return name;
#include "xgpu/error_codes.def"
#undef XGPU_ERRC
  }
  return "unknown";
}

namespace {

// A build log can be thousands of lines; what() keeps the start, build_log() has it all.
std::string head_of(const std::string& log, std::size_t max_lines) {
  std::size_t at = 0;
  for (std::size_t line = 0; line < max_lines; ++line) {
    at = log.find('\n', at);
    if (at == std::string::npos) return log;
    ++at;
  }
  return log.substr(0, at) + "  ... (the whole log: Error::build_log())\n";
}

}  // namespace

namespace {
Error::Details make_details(Errc code, std::string message, std::string call) {
  Error::Details details;
  details.code = code;
  details.message = std::move(message);
  details.call = std::move(call);
  return details;
}
}  // namespace

Error::Error(Errc code, std::string message, std::string call)
    : Error(make_details(code, std::move(message), std::move(call))) {}

Error::Error(Details details)
    : std::runtime_error(compose(details)), details_(std::move(details)) {}

std::string Error::compose(const Details& d) {
  std::string text = d.message.empty() ? errc_name(d.code) : d.message;
  if (d.native_status != 0 || !d.native_name.empty()) {
    text += " [" + (d.native_name.empty() ? std::string("status") : d.native_name) + " " +
            std::to_string(d.native_status) + "]";
  }
  if (!d.device.empty() && text.find(d.device) == std::string::npos) text += " on " + d.device;
  for (const auto& line : d.context) text += "\n  " + line;
  if (!d.build_options.empty()) text += "\n  build options: " + d.build_options;
  if (!d.build_log.empty()) text += "\n" + head_of(d.build_log, 40);
  return text;
}

Error Error::with_context(std::string what_was_happening) const {
  Details copy = details_;
  copy.context.push_back(std::move(what_was_happening));
  return Error(std::move(copy));
}

}  // namespace xgpu
