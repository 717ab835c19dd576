// Include expansion; see preprocess.hpp.
#include "preprocess.hpp"

#include <cctype>
#include <optional>
#include <set>
#include <sstream>
#include <string_view>

#include "xgpu/error.hpp"
#include "xgpu/kernels.hpp"

namespace xgpu::detail {
namespace {

// The quoted name of an `#include "name"` line, or empty when the line is something else.
std::string included_name(const std::string& line) {
  std::size_t at = line.find_first_not_of(" \t");
  if (at == std::string::npos || line[at] != '#') return {};
  at = line.find_first_not_of(" \t", at + 1);
  if (at == std::string::npos || line.compare(at, 7, "include") != 0) return {};
  at = line.find_first_not_of(" \t", at + 7);
  if (at == std::string::npos || line[at] != '"') return {};
  std::size_t end = line.find('"', at + 1);
  if (end == std::string::npos) return {};
  return line.substr(at + 1, end - at - 1);
}

class Expander {
 public:
  explicit Expander(const std::vector<Source>& headers) : headers_(headers) {}

  void expand(const std::string& name, const std::string& text, int depth) {
    included_.insert(name);
    emit("#line 1 \"" + name + "\"", name, 1);
    std::istringstream in(text);
    int number = 0;
    for (std::string line; std::getline(in, line);) {
      ++number;
      std::string header = included_name(line);
      if (header.empty()) {
        emit(line, name, number);
        continue;
      }
      if (included_.count(header)) {
        emit("", name, number);  // already in: keep the line count
        continue;
      }
      const std::string* found = lookup(header);
      if (!found) {
        throw Error(Errc::unknown_source,
                    name + ":" + std::to_string(number) + ": #include \"" + header +
                        "\" finds no header passed to build() "
                        "and no embedded kernel of that name",
                    "Context::build");
      }
      if (depth > 64) {
        throw Error(Errc::unknown_source, name + ": includes nested deeper than 64 levels",
                    "Context::build");
      }
      expand(header, *found, depth + 1);
      emit("#line " + std::to_string(number + 1) + " \"" + name + "\"", name, number + 1);
    }
  }

  ExpandedSource result() { return std::move(result_); }

 private:
  void emit(const std::string& line, const std::string& file, int number) {
    result_.text += line;
    result_.text += '\n';
    result_.origins.emplace_back(file, number);
  }

  const std::string* lookup(const std::string& header) const {
    for (const Source& source : headers_) {
      if (source.name == header) return &source.text;
    }
    return kernels::find(header);
  }

  const std::vector<Source>& headers_;
  std::set<std::string> included_;
  ExpandedSource result_;
};

}  // namespace

ExpandedSource expand_includes(const Source& source, const std::vector<Source>& headers) {
  Expander expander(headers);
  expander.expand(source.name.empty() ? "program.cl" : source.name, source.text, 0);
  return expander.result();
}

}  // namespace xgpu::detail

namespace xgpu::detail {

namespace {

// A "FILE:LINE:" location in a build log: FILE is "<source>" or a name that ends in ".cl" and
// holds no blank, colon or quote. Found by hand: std::regex's matcher recursed once per
// character and overflowed the stack on a long line (a driver quotes the source line).
struct Location {
  std::size_t begin, end;  ///< of the whole "FILE:LINE:"
  std::string file;
  std::size_t line;  ///< 0 when the number does not fit
};

bool in_file_name(char c) {
  return !std::isspace(static_cast<unsigned char>(c)) && c != ':' && c != '\'' && c != '"';
}

bool ends_with(std::string_view text, std::string_view end) {
  return text.size() >= end.size() && text.substr(text.size() - end.size()) == end;
}

// The first location at or after `from`.
std::optional<Location> next_location(const std::string& log, std::size_t from) {
  for (std::size_t colon = log.find(':', from); colon != std::string::npos;
       colon = log.find(':', colon + 1)) {
    std::size_t digits_end = colon + 1;
    while (digits_end < log.size() && std::isdigit(static_cast<unsigned char>(log[digits_end])))
      ++digits_end;
    if (digits_end == colon + 1 || digits_end == log.size() || log[digits_end] != ':') continue;
    std::size_t begin = colon;
    while (begin > from && in_file_name(log[begin - 1])) --begin;
    std::string_view name(log.data() + begin, colon - begin);
    if (name.size() > 3 && ends_with(name, ".cl")) {
      // the whole name
    } else if (ends_with(name, "<source>")) {
      begin = colon - 8;
      name = "<source>";
    } else {
      continue;
    }
    std::size_t line = 0;
    if (digits_end - colon - 1 <= 9)
      line = std::stoul(log.substr(colon + 1, digits_end - colon - 1));
    return Location{begin, digits_end + 1, std::string(name), line};
  }
  return std::nullopt;
}

}  // namespace

std::string remap_log(const std::string& log, const ExpandedSource& expanded) {
  std::set<std::string> ours;
  for (const auto& origin : expanded.origins) ours.insert(origin.first);
  std::string out;
  std::size_t copied = 0;
  for (auto at = next_location(log, 0); at; at = next_location(log, at->end)) {
    if (ours.count(at->file)) continue;
    if (at->line == 0 || at->line > expanded.origins.size()) continue;
    const auto& origin = expanded.origins[at->line - 1];
    out.append(log, copied, at->begin - copied);
    out += origin.first + ":" + std::to_string(origin.second) + ":";
    copied = at->end;
  }
  out.append(log, copied, std::string::npos);
  return out;
}

}  // namespace xgpu::detail
