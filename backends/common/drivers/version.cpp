// The one version parser; see xgpu/common/drivers/version.hpp.
#include "xgpu/common/drivers/version.hpp"

#include <cctype>
#include <limits>

namespace xgpu::drivers {
namespace {

bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

// The dotted number starting at `at` (a digit): "21.10 ..." -> {21, 10}. A dot is taken only
// when a digit follows ("3.1." reads 3.1). `at` ends past the number. A number past an
// unsigned long stays at its largest value rather than wrapping, so that a version a profile
// file or a -cl-std= option writes far too large still compares as newer than every real one.
Version number_at(std::string_view text, std::size_t& at) {
  constexpr unsigned long kLargest = std::numeric_limits<unsigned long>::max();
  std::vector<unsigned long> numbers;
  while (at < text.size() && is_digit(text[at])) {
    unsigned long number = 0;
    for (; at < text.size() && is_digit(text[at]); ++at) {
      const auto digit = static_cast<unsigned long>(text[at] - '0');
      number = number > (kLargest - digit) / 10 ? kLargest : number * 10 + digit;
    }
    numbers.push_back(number);
    if (at + 1 < text.size() && text[at] == '.' && is_digit(text[at + 1])) ++at;
  }
  return Version(std::move(numbers));
}

// The number right after `prefix` at `at`, or empty.
Version number_after(std::string_view text, std::size_t at, std::string_view prefix) {
  if (text.substr(at, prefix.size()) != prefix) return {};
  at += prefix.size();
  if (at >= text.size() || !is_digit(text[at])) return {};
  return number_at(text, at);
}

std::size_t skip_blanks(std::string_view text, std::size_t at = 0) {
  while (at < text.size() && std::isspace(static_cast<unsigned char>(text[at]))) ++at;
  return at;
}

}  // namespace

std::string Version::text() const {
  std::string out;
  for (std::size_t i = 0; i < numbers_.size(); ++i)
    out += (i ? "." : "") + std::to_string(numbers_[i]);
  return out;
}

int compare(const Version& a, const Version& b) {
  if (a.empty() || b.empty()) return a.empty() == b.empty() ? 0 : (a.empty() ? -1 : 1);
  for (std::size_t i = 0; i < a.numbers().size() || i < b.numbers().size(); ++i) {
    if (a.number(i) != b.number(i)) return a.number(i) < b.number(i) ? -1 : 1;
  }
  return 0;
}

Version parse_version(std::string_view text) {
  std::size_t at = 0;
  while (at < text.size() && !is_digit(text[at])) ++at;
  return number_at(text, at);
}

Version driver_version(std::string_view text) { return parse_version(text); }

Version opencl_version(std::string_view text) {
  return number_after(text, skip_blanks(text), "OpenCL ");
}

Version opencl_c_version(std::string_view text) {
  const std::size_t at = text.find("OpenCL C ");
  return at == std::string_view::npos ? Version() : number_after(text, at, "OpenCL C ");
}

Version implementation_version(std::string_view platform_version) {
  std::size_t at = skip_blanks(platform_version);
  if (number_after(platform_version, at, "OpenCL ").empty()) return {};
  at += 7;  // "OpenCL "
  number_at(platform_version, at);
  for (; at < platform_version.size(); ++at) {
    const char before = platform_version[at - 1];
    if (!is_digit(platform_version[at]) || (before != ' ' && before != '(')) continue;
    std::size_t end = at;
    Version version = number_at(platform_version, end);
    if (version.numbers().size() >= 2) return version;
    at = end;
  }
  return {};
}

Version cl_std_version(std::string_view options) {
  Version last;
  for (std::size_t at = options.find("-cl-std="); at != std::string_view::npos;
       at = options.find("-cl-std=", at + 1)) {
    if (at > 0 && !std::isspace(static_cast<unsigned char>(options[at - 1]))) continue;
    const std::size_t value = at + 8;
    Version version = number_after(options, value, "CL");
    if (version.empty()) version = number_after(options, value, "cl");
    // A later -cl-std wins, as in clang; one without a number (CLC++) asks for no OpenCL C.
    last = version;
  }
  return last;
}

std::string cl_std_option(const Version& version) {
  if (version < Version{2, 0}) return {};
  return "-cl-std=CL" + std::to_string(version.number(0)) + "." + std::to_string(version.number(1));
}

Version newest_opencl_c(std::string_view language_version, std::string_view device_version) {
  return newest_opencl_c(opencl_c_version(language_version), opencl_version(device_version));
}

Version newest_opencl_c(const Version& language, const Version& device) {
  return device >= Version{3, 0} && language < device ? device : language;
}

}  // namespace xgpu::drivers
