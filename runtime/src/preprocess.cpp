// Include expansion; see preprocess.hpp.
#include "preprocess.hpp"

#include <cctype>
#include <regex>
#include <set>
#include <sstream>

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

std::string remap_log(const std::string& log, const ExpandedSource& expanded) {
  std::set<std::string> ours;
  for (const auto& origin : expanded.origins) ours.insert(origin.first);
  // Matches FILE:LINE: where FILE has no spaces; ours are left alone.
  static const std::regex location(R"(([^\s:'"]+\.cl|<source>):(\d+):)");
  std::string out;
  auto begin = std::sregex_iterator(log.begin(), log.end(), location);
  std::size_t copied = 0;
  for (auto it = begin; it != std::sregex_iterator(); ++it) {
    const std::smatch& match = *it;
    if (ours.count(match[1].str())) continue;
    std::size_t line = std::stoul(match[2].str());
    if (line == 0 || line > expanded.origins.size()) continue;
    const auto& origin = expanded.origins[line - 1];
    out.append(log, copied, static_cast<std::size_t>(match.position(0)) - copied);
    out += origin.first + ":" + std::to_string(origin.second) + ":";
    copied = static_cast<std::size_t>(match.position(0) + match.length(0));
  }
  out.append(log, copied, std::string::npos);
  return out;
}

}  // namespace xgpu::detail
