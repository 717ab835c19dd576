// Parsing and matching device selectors. What a word matches is backends/common's rule
// (xgpu/common/device_kind.hpp), which the profile module's backing selector shares: type
// words never match a simulator (Oclgrind claims to be every type at once), it is picked by
// name, by `*` or by index.
#include "selector.hpp"

#include <algorithm>
#include <cctype>

#include "registry.hpp"
#include "util/closest_word.hpp"
#include "util/device_traits.hpp"

namespace xgpu::detail {
namespace {

[[noreturn]] void bad(std::string_view selector, const std::string& why) {
  throw Error(Errc::invalid_selector,
              "invalid device selector '" + std::string(selector) + "': " + why, "select");
}

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string trim(std::string_view text) {
  std::size_t begin = 0, end = text.size();
  while (begin < end && std::isspace(static_cast<unsigned char>(text[begin]))) ++begin;
  while (end > begin && std::isspace(static_cast<unsigned char>(text[end - 1]))) --end;
  return std::string(text.substr(begin, end - begin));
}

bool is_number(const std::string& text) {
  return !text.empty() && text.size() < 10 && std::all_of(text.begin(), text.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c));
  });
}

bool contains(const std::vector<std::string>& words, const std::string& word) {
  return std::find(words.begin(), words.end(), word) != words.end();
}

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    std::size_t end = text.find(separator, start);
    parts.push_back(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) return parts;
    start = end + 1;
  }
}

std::string expected_words(const std::vector<std::string>& backends) {
  std::string text = "expected a type (gpu, cpu, accelerator, *), a vendor (";
  const std::vector<std::string>& vendors = common::selector_vendor_words();
  for (std::size_t i = 0; i < vendors.size(); ++i) text += (i ? ", " : "") + vendors[i];
  text += "), a backend (";
  for (std::size_t i = 0; i < backends.size(); ++i) text += (i ? ", " : "") + backends[i];
  return text + ") or a device index";
}

SelectorTerm parse_term(std::string_view selector, const std::string& text,
                        const std::vector<std::string>& backends) {
  SelectorTerm term;
  term.text = text;
  std::vector<std::string> parts = split(lower(text), ':');
  if (parts.size() > 3) bad(selector, "term '" + text + "' has more than three parts");
  for (const auto& part : parts) {
    if (part.empty()) bad(selector, "term '" + text + "' has an empty part");
  }
  if (parts.size() == 3 || (parts.size() == 2 && contains(backends, parts[0]))) {
    if (!contains(backends, parts[0]))
      bad(selector, "unknown backend '" + parts[0] + "'" + util::did_you_mean(parts[0], backends));
    term.backend = parts[0];
    parts.erase(parts.begin());
  }
  if (parts.size() == 2) {
    if (!is_number(parts[1])) bad(selector, "'" + parts[1] + "' in '" + text + "' is not an index");
    term.index = std::stoul(parts[1]);
    parts.pop_back();
  }
  const std::string& what = parts[0];
  if (is_number(what)) {
    if (term.index) bad(selector, "term '" + text + "' has two indices");
    term.index = std::stoul(what);
    term.what = term.backend.empty() ? "" : "*";
  } else if (contains(common::selector_type_words(), what) ||
             contains(common::selector_vendor_words(), what)) {
    term.what = what;
  } else if (term.backend.empty() && contains(backends, what)) {
    term.backend = what;
    term.what = "*";
  } else {
    std::vector<std::string> words = common::selector_type_words();
    const std::vector<std::string>& vendors = common::selector_vendor_words();
    words.insert(words.end(), vendors.begin(), vendors.end());
    words.insert(words.end(), backends.begin(), backends.end());
    const std::string suggestion = util::did_you_mean(what, words);
    bad(selector, "unknown word '" + what + "'" +
                      (suggestion.empty() ? ": " + expected_words(backends)
                                          : suggestion + " (" + expected_words(backends) + ")"));
  }
  return term;
}

}  // namespace

std::vector<SelectorTerm> parse_selector(std::string_view selector,
                                         const std::vector<std::string>& backend_names) {
  std::string text = trim(selector);
  if (text.empty()) bad(selector, "it is empty");
  std::vector<SelectorTerm> terms;
  for (const std::string& raw : split(text, ',')) {
    std::string term = trim(raw);
    if (term.empty()) bad(selector, "it has an empty term");
    terms.push_back(parse_term(selector, term, backend_names));
  }
  return terms;
}

std::vector<const DeviceRecord*> match_term(const SelectorTerm& term,
                                            const std::vector<const DeviceRecord*>& devices) {
  std::vector<const DeviceRecord*> matches;
  if (term.what.empty()) {  // a plain index into the list itself
    if (term.index && *term.index < devices.size()) matches.push_back(devices[*term.index]);
    return matches;
  }
  for (const DeviceRecord* device : devices) {
    if (!term.backend.empty() && device->info.backend != term.backend) continue;
    if (common::matches_selector_word(term.what, device_kind(device->info)))
      matches.push_back(device);
  }
  if (term.index) {
    if (*term.index >= matches.size()) return {};
    return {matches[*term.index]};
  }
  return matches;
}

std::vector<const DeviceRecord*> match_selector_all(std::string_view selector,
                                                    const DeviceLists& lists,
                                                    const std::vector<std::string>& backend_names,
                                                    bool with_aliases) {
  std::vector<const DeviceRecord*> result;
  auto add = [&](const DeviceRecord* device) {
    if (std::find(result.begin(), result.end(), device) == result.end()) result.push_back(device);
  };
  for (const SelectorTerm& term : parse_selector(selector, backend_names)) {
    const bool physical = term.backend.empty();
    for (const DeviceRecord* device : match_term(term, physical ? lists.physical : lists.backend)) {
      add(device);
      if (!physical || !with_aliases) continue;
      for (const DeviceRecord* alias : device->aliases) {
        if (std::find(lists.backend.begin(), lists.backend.end(), alias) != lists.backend.end())
          add(alias);
      }
    }
  }
  return result;
}

}  // namespace xgpu::detail
