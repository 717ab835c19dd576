// Every registered conformance check on every device, one Catch2 section each (a skip is a
// WARN with its reason, never a pass), and tests of the runner itself: a deliberately wrong
// reference must come out as a failure with a clear line and a non-zero exit status.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdlib>
#include <map>
#include <math_check.hpp>
#include <memory>
#include <report.hpp>
#include <runner.hpp>
#include <sstream>

using namespace xgpu::conform;

namespace {

// Oclgrind simulates every work-item: it gets the small sizes of --quick.
bool quick_for(const xgpu::Device& device) {
  const char* quick = std::getenv("XGPU_CONFORM_QUICK");
  return (quick && *quick == '1') || device.info().implementation == "oclgrind";
}

// One Env per device for the whole process: Catch2 re-enters the test case once per
// section, and programs built for one check serve the next. Never destroyed: at exit the
// OpenCL drivers may already be torn down when static destructors run.
Env& env_for(const xgpu::Device& device) {
  static auto* envs = new std::map<std::size_t, std::unique_ptr<Env>>;
  auto& env = (*envs)[device.index()];
  if (!env) env = std::make_unique<Env>(device, quick_for(device));
  return *env;
}

}  // namespace

TEST_CASE("every conformance check on every device", "[conform][checks]") {
  static const Registry registry = all_checks();
  REQUIRE(!xgpu::devices().empty());
  for (const xgpu::Device& device : xgpu::devices()) {
    for (const Check& check : registry.checks()) {
      DYNAMIC_SECTION(device.describe() << " " << check.suite << "/" << check.name) {
        const Result result = run_check(check, env_for(device));
        if (result.outcome == Outcome::skip) {
          WARN("SKIPPED " << check.suite << "/" << check.name << ": " << result.detail);
        } else {
          INFO(check.suite << "/" << check.name << ": " << result.detail);
          CHECK(result.outcome == Outcome::pass);
        }
      }
    }
  }
}

TEST_CASE("the runner reports a wrong reference as a failure", "[conform][runner]") {
  Registry registry;
  register_selftest(registry);  // selftest/wrong_reference: expects 15 where 10 is right
  registry.add("selftest", "missing_extension", "cl_conform_no_such_extension",
               [](Env&) { return pass(); });
  registry.add("selftest", "throws", "", [](Env&) -> Result { throw std::runtime_error("boom"); });
  registry.add("selftest", "passes", "", [](Env&) { return pass(); });
  const xgpu::Device device = xgpu::devices().at(0);
  const DeviceReport report = run_device(registry, device, {{}, true, {}});
  REQUIRE(report.results.size() == 4);
  CHECK(report.results[0].result.outcome == Outcome::fail);
  CHECK(report.results[0].result.detail == "x[0] after twice: expected 15, got 10");
  CHECK(report.results[1].result.outcome == Outcome::skip);
  CHECK(report.results[1].result.detail == "needs cl_conform_no_such_extension");
  CHECK(report.results[2].result.outcome == Outcome::fail);
  CHECK(report.results[2].result.detail == "threw: boom");
  CHECK(report.results[3].result.outcome == Outcome::pass);
  const std::vector<DeviceReport> reports{report};
  CHECK(summary_line(reports) == "1 passed, 2 failed, 1 skipped");
  CHECK(exit_status(reports) == 1);

  std::ostringstream junit;
  write_junit(junit, reports);
  CHECK(junit.str().find("<failure message=\"x[0] after twice: expected 15, got 10\">") !=
        std::string::npos);
  CHECK(junit.str().find("<skipped message=\"needs cl_conform_no_such_extension\"/>") !=
        std::string::npos);

  // Only the passing check: exit 0. Then the baseline shows what changed.
  const DeviceReport good = run_device(registry, device, {{"selftest"}, true, {}});
  CHECK(unknown_suite(registry, {"selftest", "nope"}) == "nope");
  DeviceReport fixed = good;
  fixed.results[0].result = pass();
  fixed.results[2].result = pass();
  CHECK(exit_status({fixed}) == 0);
  const std::vector<std::string> changes = compare_baseline(to_json(reports), {fixed});
  REQUIRE(changes.size() == 2);
  CHECK(changes[0].find("selftest/wrong_reference: fail -> pass") != std::string::npos);
}

TEST_CASE("the math ULP measure", "[conform][runner]") {
  using math::ulp_error;
  CHECK(ulp_error<float>(1.0f, 1.0L) == 0);
  CHECK(ulp_error<float>(std::nextafter(1.0f, 2.0f), 1.0L) == Approx(1.0));
  CHECK(ulp_error<float>(1.0f, 1.0L + 0x1p-24L) == Approx(0.5));
  CHECK(std::isinf(ulp_error<float>(NAN, 1.0L)));
  CHECK(ulp_error<float>(NAN, NAN) == 0);
  CHECK(ulp_error<float>(INFINITY, 1e39L) == 0);  // past FLT_MAX: rounds to infinity
  CHECK(std::isinf(ulp_error<float>(-INFINITY, 1e39L)));
  CHECK(ulp_error<double>(1.0, 1.0L + 0x1p-52L) == Approx(1.0));

  // A wrong implementation (sqrt scaled by 1.001) is reported with its input and error.
  const math::Function bad = {
      "bad_sqrt", "sqrt(a) * 1.001f", 1, 3, 0, 100, [](long double a, long double, long double) {
        return sqrtl(a);
      }};
  Env env(xgpu::devices().at(0), true);
  const xgpu::Program program =
      env.program("conform_bad_math.cl", math::program_text({bad}, "float", ""));
  const Result result = math::check_function<float>(env, program, bad);
  CHECK(result.outcome == Outcome::fail);
  CHECK(result.detail.find("ulp > bound 3 ulp") != std::string::npos);
  CHECK(result.detail.find("worst: input a=") != std::string::npos);
}
