// Helpers shared by the xgpu unit tests: what the environment promises (set by CTest),
// scoped environment variables, catching an xgpu::Error to inspect it, and small builders.
#pragma once

#include <catch2/catch.hpp>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>
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

/// Sets (or unsets, with nullopt) an environment variable for one scope.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, std::optional<std::string> value) : name_(name), old_(env(name)) {
    set(value);
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;
  ~ScopedEnv() { set(old_); }

 private:
  void set(const std::optional<std::string>& value) {
    if (value) {
      setenv(name_.c_str(), value->c_str(), 1);
    } else {
      unsetenv(name_.c_str());
    }
  }
  std::string name_;
  std::optional<std::string> old_;
};

inline bool is_oclgrind(const xgpu::Device& device) {
  return device.info().implementation == "oclgrind";
}
inline bool is_pocl(const xgpu::Device& device) { return device.info().implementation == "pocl"; }

/// Oclgrind interprets every work-item, so tests keep their sizes small there.
inline std::size_t problem_size(const xgpu::Device& device, std::size_t wanted) {
  return is_oclgrind(device) && wanted > 1024 ? 1024 : wanted;
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

/// Count of visible devices whose implementation is `name`.
inline std::size_t count_implementation(const std::string& name) {
  std::size_t count = 0;
  for (const xgpu::Device& device : xgpu::devices()) count += device.info().implementation == name;
  return count;
}

}  // namespace xgpu_test
