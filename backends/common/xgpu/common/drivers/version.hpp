// Reading the versions drivers report: the one parser of OpenCL versions (CL_DEVICE_VERSION,
// CL_PLATFORM_VERSION), OpenCL C versions (CL_DEVICE_OPENCL_C_VERSION, -cl-std=), driver versions
// (CL_DRIVER_VERSION) and an implementation's own version (inside CL_PLATFORM_VERSION). The
// modules, the core, conform and the `xgpu` command all read versions through it, so that
// "OpenCL 1.2 (Oclgrind 21.10)" means the same thing everywhere. Pure C++, no driver header.
//
// Strings as drivers write them (tests/backends/common/test_driver_facts.cpp holds each):
//   NVIDIA    "OpenCL 3.0 CUDA", "OpenCL C 1.2 ", driver "535.104.05"
//   AMD ROCm  "OpenCL 2.0 ", "OpenCL C 2.0 ", driver "3452.0 (HSA1.1,LC)"
//   Intel NEO "OpenCL 3.0 NEO ", "OpenCL C 1.2 ", driver "23.17.26241.33"
//   PoCL      "OpenCL 3.0 PoCL HSTR: pthread-x86_64-...", "OpenCL C 1.2 PoCL", driver "3.1+debian"
//   Oclgrind  "OpenCL 1.2 (Oclgrind 21.10)", "OpenCL C 1.2 (Oclgrind 21.10)", "Oclgrind 21.10"
//   Apple     "OpenCL 1.2 ", "OpenCL C 1.2 ", driver "1.2 1.0"
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace xgpu::drivers {

/// A version as its numbers: "21.10" is {21, 10}. Versions compare number by number, a
/// missing trailing number counting as 0 (3.1 == 3.1.0). Empty when the text held none; an
/// empty version is older than every other.
class Version {
 public:
  Version() = default;
  Version(std::initializer_list<unsigned long> numbers) : numbers_(numbers) {}
  explicit Version(std::vector<unsigned long> numbers) : numbers_(std::move(numbers)) {}

  bool empty() const { return numbers_.empty(); }
  /// The i-th number (0: major, 1: minor, ...); 0 past the last.
  unsigned long number(std::size_t i) const { return i < numbers_.size() ? numbers_[i] : 0; }
  const std::vector<unsigned long>& numbers() const { return numbers_; }
  /// "3.0", "535.104.5"; "" when empty.
  std::string text() const;

 private:
  std::vector<unsigned long> numbers_;
};

/// <0, 0, >0 as `a` is older than, the same as, newer than `b`.
int compare(const Version& a, const Version& b);
inline bool operator==(const Version& a, const Version& b) { return compare(a, b) == 0; }
inline bool operator!=(const Version& a, const Version& b) { return compare(a, b) != 0; }
inline bool operator<(const Version& a, const Version& b) { return compare(a, b) < 0; }
inline bool operator<=(const Version& a, const Version& b) { return compare(a, b) <= 0; }
inline bool operator>(const Version& a, const Version& b) { return compare(a, b) > 0; }
inline bool operator>=(const Version& a, const Version& b) { return compare(a, b) >= 0; }

/// The first run of dotted digits in `text`: "Oclgrind 21.10" -> 21.10, "3.1+debian" -> 3.1,
/// "3452.0 (HSA1.1,LC)" -> 3452.0, "1.2 1.0" -> 1.2. A version written alone ("21.10").
Version parse_version(std::string_view text);

/// CL_DRIVER_VERSION, the version the table of known drivers (known_drivers.def) gives ranges
/// in: its first run of dotted digits (parse_version).
Version driver_version(std::string_view text);

/// CL_DEVICE_VERSION or CL_PLATFORM_VERSION, "OpenCL<space><major.minor><space><vendor text>":
/// "OpenCL 3.0 CUDA" -> 3.0. Empty when the text does not start so (leading blanks allowed).
Version opencl_version(std::string_view text);

/// CL_DEVICE_OPENCL_C_VERSION, "OpenCL C <major.minor> <vendor text>": "OpenCL C 1.2 PoCL" ->
/// 1.2. Empty when the text holds no "OpenCL C " followed by a number.
Version opencl_c_version(std::string_view text);

/// The implementation's own version in CL_PLATFORM_VERSION's vendor text: the first dotted
/// number that starts a word after the OpenCL version. "OpenCL 3.0 CUDA 12.2.149" -> 12.2.149,
/// "OpenCL 3.0 PoCL 3.1+debian  Linux, ..." -> 3.1, "OpenCL 2.1 AMD-APP (3590.0)" -> 3590.0,
/// "OpenCL 1.2 (Oclgrind 21.10)" -> 21.10; empty for "OpenCL 3.0 NEO " or Apple's build date.
Version implementation_version(std::string_view platform_version);

/// The OpenCL C a build asks for: the last -cl-std=CL<major.minor> of `options` ("-cl-std=CL2.0
/// -O2" -> 2.0); empty when none (the device's default, OpenCL C 1.x).
Version cl_std_version(std::string_view options);

/// The option that asks for `version` ("-cl-std=CL3.0"); empty below 2.0, whose language is
/// every device's default.
std::string cl_std_option(const Version& version);

/// The newest OpenCL C a device compiles with -cl-std. An OpenCL 3.0 device reports 1.2 in
/// CL_DEVICE_OPENCL_C_VERSION (deprecated in 3.0: "the newest version fully compatible with
/// 1.x"; NVIDIA, Intel NEO and PoCL all do) yet accepts -cl-std=CL3.0, its 3.0 versions being in
/// CL_DEVICE_OPENCL_C_ALL_VERSIONS. So: the language version, raised to the device's OpenCL
/// version from 3.0 on.
Version newest_opencl_c(std::string_view language_version, std::string_view device_version);
/// The same rule on versions already read: `language` raised to `device` from 3.0 on.
Version newest_opencl_c(const Version& language, const Version& device);

}  // namespace xgpu::drivers
