// The conformance checks: each is described once here (suite, name, capability it needs,
// the function that runs it) and used by both `xgpu conform` and the Catch2 tests.
// Suites register their checks through explicit functions, so nothing runs at load time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>
#include <xgpu/xgpu.hpp>

namespace xgpu::conform {

enum class Outcome { pass, fail, skip };
const char* outcome_name(Outcome outcome);

/// What one check found. detail: "expected X, got Y" for a failure, the reason for a skip.
struct Result {
  Outcome outcome = Outcome::pass;
  std::string detail;
};
inline Result pass() { return {Outcome::pass, {}}; }
inline Result fail(std::string detail) { return {Outcome::fail, std::move(detail)}; }
inline Result skip(std::string reason) { return {Outcome::skip, std::move(reason)}; }

/// "expected 42, got 41" with any streamable values.
template <class E, class G>
Result fail_expected(const std::string& what, const E& expected, const G& got) {
  std::ostringstream text;
  text << what << (what.empty() ? "" : ": ") << "expected " << expected << ", got " << got;
  return fail(text.str());
}

struct Check;

/// One device's context and queue, shared by the checks run on it, plus programs built once
/// for several checks (math, atomics) so that slow compilers are not asked twice.
class Env {
 public:
  Env(const Device& device, bool quick);
  const Device& device() const { return device_; }
  const DeviceInfo& info() const { return device_.info(); }
  Context& context() { return context_; }
  Queue& queue() { return queue_; }
  bool quick() const { return quick_; }
  /// The check running on it ("suite/name"), set by run_check(): what the table of known
  /// drivers is asked about (known_deviations.hpp).
  const std::string& check() const { return check_; }
  /// Problem size: `full` normally, `quick_size` with --quick.
  std::size_t size(std::size_t full, std::size_t quick_size) const {
    return quick_ ? quick_size : full;
  }
  /// Builds (or returns the earlier build of) a program named `name`.
  Program program(const std::string& name, const std::string& text,
                  const std::string& options = {});

  /// For the tests that prove a check can fail: every later build of program `name` has
  /// `from` replaced by `to` (a wrong kernel). Building it throws when `from` is absent, so a
  /// sabotage that no longer matches the kernel cannot pass silently. Forgets earlier builds.
  void sabotage(const std::string& name, const std::string& from, const std::string& to);

  /// --full: the checks of one-argument float math functions go over every float bit
  /// pattern in [first, end), `batch` per launch, instead of samples (math_exhaustive.cpp).
  /// Tests narrow the range; `progress` hears (check name, fraction done) after each batch.
  struct Exhaustive {
    bool on = false;
    std::uint64_t first = 0, end = std::uint64_t{1} << 32, batch = std::uint64_t{1} << 24;
    std::function<void(const std::string&, double)> progress;
  };
  Exhaustive& exhaustive() { return exhaustive_; }

 private:
  struct Patch {
    std::string from, to;
  };
  Device device_;
  Context context_;
  Queue queue_;
  bool quick_;
  std::map<std::string, Program> programs_;
  std::multimap<std::string, Patch> patches_;
  Exhaustive exhaustive_;
  std::string check_;
  friend Result run_check(const Check& check, Env& env);
};

/// The description of one check.
struct Check {
  std::string suite;
  std::string name;
  /// Capability the device must have, or empty: "fp64", "fp16", or an extension name
  /// ("cl_khr_int64_base_atomics"). Checked by the runner before running.
  std::string needs;
  std::function<Result(Env&)> run;
};

/// `n` floats uniform in [low, high), the same for the same seed: the inputs of the library
/// suites' checks.
inline std::vector<float> random_floats(std::size_t n, std::uint32_t seed, float low, float high) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<float> uniform(low, high);
  std::vector<float> values(n);
  for (float& v : values) v = uniform(random);
  return values;
}

/// Why the device cannot run a check that needs `needs` ("needs cl_khr_fp16"), or empty.
std::string missing_capability(const std::string& needs, const DeviceInfo& info);

class Registry {
 public:
  void add(std::string suite, std::string name, std::string needs, std::function<Result(Env&)> run);
  const std::vector<Check>& checks() const { return checks_; }
  std::vector<std::string> suites() const;

 private:
  std::vector<Check> checks_;
};

void register_api(Registry& registry);
void register_memory(Registry& registry);
void register_execution(Registry& registry);
void register_compiler(Registry& registry);
void register_events(Registry& registry);
void register_atomics(Registry& registry);
void register_math(Registry& registry);
void register_cache(Registry& registry);
void register_library(Registry& registry);
/// Driver features xgpu reaches through interop; checks of several suites (suite_native.cpp).
void register_native(Registry& registry);
void register_library_elementwise(Registry& registry);
void register_library_reduce(Registry& registry);
void register_library_sort(Registry& registry);
void register_library_gemm(Registry& registry);
void register_integer(Registry& registry);
void register_conversions(Registry& registry);
void register_relational(Registry& registry);
void register_vectors(Registry& registry);
void register_workgroups(Registry& registry);
void register_printf(Registry& registry);
/// A check that fails on purpose (not part of all_checks()), to test the runner.
void register_selftest(Registry& registry);

/// Every suite's checks, in suite order (api, memory, execution, ...).
Registry all_checks();

/// Runs a check: capability first (skip), then the function; an exception is a failure
/// naming it.
Result run_check(const Check& check, Env& env);

}  // namespace xgpu::conform
