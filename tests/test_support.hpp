// Helpers shared by the xgpu unit tests of every folder: what the environment promises (set
// by CTest), scoped environment variables, catching an xgpu::Error to inspect it, and, for
// the tests of element types (algorithms/), their names, host values, random inputs and
// uploads.
#pragma once

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>
#include <xgpu/extension.hpp>
#include <xgpu/xgpu.hpp>

namespace Catch {
// Lets Catch print "argument_type" instead of a number when a code comparison fails.
template <>
struct StringMaker<xgpu::Errc> {
  static std::string convert(xgpu::Errc code) { return xgpu::errc_name(code); }
};
// Names a device in failure messages instead of "{?}".
template <>
struct StringMaker<xgpu::Device> {
  static std::string convert(const xgpu::Device& device) {
    return device ? device.describe() : std::string("(empty Device)");
  }
};
}  // namespace Catch

namespace xgpu_test {

/// The value of an environment variable, if set.
inline std::optional<std::string> env(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr) return std::nullopt;
  return std::string(value);
}

/// A number the CTest entry promises, e.g. XGPU_TEST_EXPECT_POCL=2; nothing when unset.
inline std::optional<long> env_number(const char* name) {
  auto text = env(name);
  if (!text || text->empty()) return std::nullopt;
  return std::stol(*text);
}

/// xgpu reads each of its settings once per process (docs/settings.md), and setenv() while
/// other threads (PoCL's, the kernel cache's) read the environment can crash them: so a test
/// never sets one, it runs under what its CTest entry set (tests/CMakeLists.txt). For a test's
/// messages: "XGPU_SORT_SHAPE=gpu", or "XGPU_SORT_SHAPE unset (the device's kind decides)".
inline std::string setting_note(const char* name) {
  const std::optional<std::string> value = env(name);
  return std::string(name) + (value ? "=" + *value : " unset (the default)");
}

/// The layout ("cpu" or "gpu") an algorithm runs in on `device` under the entry's layout
/// setting (XGPU_SORT_SHAPE...): the setting's value, else the device's kind decides, as the
/// library's one rule does (runtime/algorithms/src/support.hpp).
inline std::string layout_in_effect(const char* name, const xgpu::Device& device) {
  const std::optional<std::string> value = env(name);
  if (value && !value->empty()) return *value;
  return xgpu::ext::is_cpu(device.info()) ? "cpu" : "gpu";
}

/// The folder of the stub modules (tests/stub_backend), or nothing (with a warning) when this
/// run was not given one.
inline std::optional<std::string> stub_dir() {
  auto dir = env("XGPU_TEST_STUB_DIR");
  if (!dir || dir->empty()) {
    WARN("XGPU_TEST_STUB_DIR is not set: the stub module tests are skipped");
    return std::nullopt;
  }
  return dir;
}

inline bool is_oclgrind(const xgpu::Device& device) {
  return device.info().implementation == "oclgrind";
}
inline bool is_pocl(const xgpu::Device& device) { return device.info().implementation == "pocl"; }

/// Oclgrind interprets every work-item, so tests keep their sizes small there.
inline std::size_t problem_size(const xgpu::Device& device, std::size_t wanted) {
  return is_oclgrind(device) && wanted > 1024 ? 1024 : wanted;
}

/// The bytes of the tests "near max_allocation": an eighth of the device's largest allocation
/// (PoCL: 128 MiB). The sanitizers' build checks the host code, not the scale (the main build
/// does): at most 16 MiB there, where the host loops over them run many times slower.
inline std::size_t large_bytes(const xgpu::Device& device) {
  const std::size_t bytes = device.info().max_allocation / 8;
#ifdef XGPU_TEST_UNDER_SANITIZERS
  return std::min<std::size_t>(bytes, std::size_t{16} << 20);
#else
  return bytes;
#endif
}

/// Runs `action`, which must throw an xgpu::Error, and returns that error for inspection.
template <class Action>
xgpu::Error capture_error(Action&& action) {
  try {
    action();
  } catch (const xgpu::Error& error) {
    return error;
  }
  FAIL("expected an xgpu::Error, but nothing was thrown");
  throw std::logic_error("unreachable");
}

/// Checks an error's kind and that what() names every given piece of the mistake.
inline void check_error(const xgpu::Error& error, xgpu::Errc code,
                        const std::vector<std::string>& mentions = {}) {
  INFO("what(): " << error.what());
  CHECK(error.code() == code);
  for (const std::string& text : mentions) {
    CHECK_THAT(std::string(error.what()), Catch::Matchers::Contains(text));
  }
}

/// The implementations ("pocl", "oclgrind") the run must find, from
/// XGPU_TEST_REQUIRE_PLATFORMS=pocl,oclgrind (CI sets it); none when unset.
inline std::vector<std::string> required_platforms() {
  std::vector<std::string> names;
  const std::string list = env("XGPU_TEST_REQUIRE_PLATFORMS").value_or("");
  for (std::size_t begin = 0; begin < list.size();) {
    std::size_t end = list.find(',', begin);
    if (end == std::string::npos) end = list.size();
    if (end > begin) names.push_back(list.substr(begin, end - begin));
    begin = end + 1;
  }
  return names;
}

/// Count of visible devices whose implementation is `name`.
inline std::size_t count_implementation(const std::string& name) {
  std::size_t count = 0;
  for (const xgpu::Device& device : xgpu::devices()) count += device.info().implementation == name;
  return count;
}

/// Runs `body(device)` on each PoCL device, each in its own section, and checks that it ran
/// where PoCL is present: a loop over no device asserts nothing.
template <class Body>
void for_each_pocl_device(Body&& body) {
  std::size_t devices_checked = 0;
  for (const xgpu::Device& device : xgpu::devices()) {
    if (!is_pocl(device)) continue;
    DYNAMIC_SECTION(device.describe()) {
      ++devices_checked;
      body(device);
    }
  }
  if (count_implementation("pocl") > 0) CHECK(devices_checked > 0);
}

// ---- Element types: float, double, int32, uint32, half and bfloat16, as kernels take them --

template <class T>
constexpr bool is_half = std::is_same_v<T, xgpu::half>;
/// half and bfloat16: 16-bit storage the kernels compute on in float.
template <class T>
constexpr bool is_16bit = is_half<T> || std::is_same_v<T, xgpu::bfloat16>;
template <class T>
constexpr bool is_floating = std::is_floating_point_v<T> || is_16bit<T>;

/// The host's type for computing with an element: float for half and bfloat16 (as the
/// kernels compute), the element's own type otherwise.
template <class T>
using HostValue = std::conditional_t<is_16bit<T>, float, T>;

template <class T>
constexpr const char* type_name() {
  if constexpr (std::is_same_v<T, float>) return "float";
  if constexpr (std::is_same_v<T, double>) return "double";
  if constexpr (std::is_same_v<T, std::int32_t>) return "int32";
  if constexpr (std::is_same_v<T, std::uint32_t>) return "uint32";
  if constexpr (is_half<T>) return "half";
  if constexpr (std::is_same_v<T, xgpu::bfloat16>) return "bfloat16";
}

/// An element's value on the host: half and bfloat16 as float, the rest as themselves.
template <class T>
HostValue<T> value_of(T element) {
  if constexpr (is_16bit<T>)
    return xgpu::to_float(element);
  else
    return element;
}

/// A host value stored as an element: to half or bfloat16 through float (round to nearest
/// even), the rest converted.
template <class T>
T element_of(double value) {
  if constexpr (is_half<T>)
    return xgpu::to_half(static_cast<float>(value));
  else if constexpr (std::is_same_v<T, xgpu::bfloat16>)
    return xgpu::to_bfloat16(static_cast<float>(value));
  else
    return static_cast<T>(value);
}

/// Calls body(T{}) for each element type, in the order float, double, int32, uint32, half.
template <class Body>
void for_each_element_type(Body&& body) {
  body(float{});
  body(double{});
  body(std::int32_t{});
  body(std::uint32_t{});
  body(xgpu::half{});
}

/// Runs body(context, queue, device) on every device, each in its own section with a new
/// context and that context's queue.
template <class Body>
void for_each_device(Body&& body) {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context context(device);
      xgpu::Queue queue = context.queue();
      body(context, queue, device);
    }
  }
}

/// Runs check(device, T{}) for every element type on every device, a section per device.
template <class Check>
void for_each_device_and_element_type(Check&& check) {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      for_each_element_type([&](auto tag) { check(device, tag); });
    }
  }
}

/// Whether the device takes elements of T: double needs fp64.
template <class T>
bool supported(const xgpu::Device& device) {
  return !std::is_same_v<T, double> || device.info().fp64;
}

/// Deterministic random elements: floats uniform in [low, high), integers uniform in
/// [low, high] (clipped to the type's range). A small xorshift generator: std::mt19937 with
/// a distribution takes seconds for the 32M elements of the large sizes.
template <class T>
std::vector<T> random_values(std::size_t n, unsigned seed, double low, double high) {
  std::uint64_t state = 0x9E3779B97F4A7C15ull * (seed + 1);
  std::vector<T> values(n);
  if constexpr (is_floating<T>) {
    for (T& v : values) {
      state ^= state << 13;
      state ^= state >> 7;
      state ^= state << 17;
      // 53 random bits as a double in [0, 1)
      v = element_of<T>(low + (high - low) * (static_cast<double>(state >> 11) * 0x1.0p-53));
    }
  } else {
    const std::int64_t first =
        std::max<std::int64_t>(static_cast<std::int64_t>(low), std::numeric_limits<T>::min());
    const std::int64_t last =
        std::min<std::int64_t>(static_cast<std::int64_t>(high), std::numeric_limits<T>::max());
    const std::uint64_t count = static_cast<std::uint64_t>(last - first) + 1;
    for (T& v : values) {
      state ^= state << 13;
      state ^= state >> 7;
      state ^= state << 17;
      v = static_cast<T>(first + static_cast<std::int64_t>(state % count));
    }
  }
  return values;
}

/// Random elements over a type's natural range: floats in [-1, 1), integers anywhere (to
/// exercise wrapping).
template <class T>
std::vector<T> random_values(std::size_t n, unsigned seed) {
  if constexpr (is_floating<T>)
    return random_values<T>(n, seed, -1.0, 1.0);
  else
    return random_values<T>(n, seed, static_cast<double>(std::numeric_limits<T>::min()),
                            static_cast<double>(std::numeric_limits<T>::max()));
}

/// A new buffer holding `host`.
template <class T>
xgpu::Buffer<T> upload(xgpu::Context& context, xgpu::Queue& queue, const std::vector<T>& host) {
  xgpu::Buffer<T> buffer = context.alloc<T>(host.size());
  queue.write(buffer, host);
  return buffer;
}

}  // namespace xgpu_test
