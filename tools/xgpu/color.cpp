// Decides whether to colour, and wraps text in ANSI escapes when it does.
#include "color.hpp"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <cstring>
#include <map>

namespace xgpu::cli {

void add_color_option(CLI::App& app, ColorMode& mode) {
  const std::map<std::string, ColorMode> names{
      {"auto", ColorMode::automatic}, {"always", ColorMode::always}, {"never", ColorMode::never}};
  app.add_option_function<std::string>(
         "--color", [&mode, names](const std::string& name) { mode = names.at(name); },
         "Colour the output: auto (only on a terminal, and not when NO_COLOR is set), "
         "always, never.\nExample: --color=never")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->type_name("WHEN")
      ->default_str("auto");
}

bool color_enabled(ColorMode mode, std::FILE* stream) {
  return color_enabled(mode, std::getenv("NO_COLOR"), std::getenv("TERM"),
                       isatty(fileno(stream)) == 1);
}

bool color_enabled(ColorMode mode, const char* no_color, const char* term, bool terminal) {
  if (mode == ColorMode::always) return true;
  if (mode == ColorMode::never) return false;
  if (no_color != nullptr && no_color[0] != '\0') return false;
  if (term != nullptr && std::strcmp(term, "dumb") == 0) return false;
  return terminal;
}

std::string Style::paint(std::string_view text, std::string_view sgr) const {
  if (!enabled_ || sgr.empty() || text.empty()) return std::string(text);
  std::string out;
  out.reserve(text.size() + sgr.size() + 8);
  out.append("\033[").append(sgr).append("m").append(text).append("\033[0m");
  return out;
}

}  // namespace xgpu::cli
