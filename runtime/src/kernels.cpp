// Lookup of the embedded kernels/ files by name.
#include "xgpu/kernels.hpp"

#include <map>

#include "embedded_kernels.hpp"
#include "util/closest_word.hpp"
#include "xgpu/error.hpp"

namespace xgpu::kernels {
namespace {

const std::map<std::string, std::string, std::less<>>& table() {
  static const auto* files = [] {
    auto* map = new std::map<std::string, std::string, std::less<>>();
    for (const auto& file : detail::embedded_kernels()) (*map)[file.name] = file.text;
    return map;
  }();
  return *files;
}

}  // namespace

const std::string* find(std::string_view name) {
  auto it = table().find(name);
  return it == table().end() ? nullptr : &it->second;
}

Source source(std::string_view name) {
  if (const std::string* text = find(name)) return Source{std::string(name), *text};
  std::string known;
  for (const auto& [file, text] : table()) known += (known.empty() ? "" : ", ") + file;
  throw Error(Errc::unknown_source,
              "no embedded kernel source named '" + std::string(name) + "'" +
                  util::did_you_mean(name, names()) + "; there are: " + known,
              "kernels::source");
}

std::vector<std::string> names() {
  std::vector<std::string> list;
  for (const auto& [file, text] : table()) list.push_back(file);
  return list;
}

}  // namespace xgpu::kernels
