// Colour on a terminal only: --color=auto|always|never, NO_COLOR and TERM=dumb honoured.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

namespace CLI {
class App;
}

namespace xgpu::cli {

enum class ColorMode { automatic, always, never };

/// Adds --color=auto|always|never to a subcommand, storing into `mode`.
void add_color_option(CLI::App& app, ColorMode& mode);

/// Whether text written to `stream` should be coloured. `always` beats NO_COLOR, as the
/// NO_COLOR convention allows an explicit flag to do.
bool color_enabled(ColorMode mode, std::FILE* stream);
/// The rule itself, given NO_COLOR's and TERM's values (nullptr: unset) and whether the stream
/// is a terminal.
bool color_enabled(ColorMode mode, const char* no_color, const char* term, bool terminal);

/// Paints text with ANSI escapes, or leaves it alone when colour is off.
class Style {
 public:
  explicit Style(bool enabled = false) : enabled_(enabled) {}
  std::string bold(std::string_view text) const { return paint(text, "1"); }
  std::string dim(std::string_view text) const { return paint(text, "2"); }
  std::string red(std::string_view text) const { return paint(text, "31"); }
  std::string green(std::string_view text) const { return paint(text, "32"); }
  std::string yellow(std::string_view text) const { return paint(text, "33"); }
  std::string cyan(std::string_view text) const { return paint(text, "36"); }
  /// Paints with an SGR code such as "1" or "32"; an empty code leaves the text alone.
  std::string paint(std::string_view text, std::string_view sgr) const;
  bool enabled() const { return enabled_; }

 private:
  bool enabled_;
};

}  // namespace xgpu::cli
