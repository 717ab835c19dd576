// Every registered conformance check on every device, one Catch2 section each, and tests of
// the runner itself: a deliberately wrong reference must come out as a failure with a clear
// line and a non-zero exit status. A skip passes only when the device kind's allowlist
// (allowed_skips/<implementation>.txt, in the folder XGPU_CONFORM_ALLOWED_SKIPS names, written
// from the table of known drivers, known_drivers.def) lists the check: a newly skipped check
// fails, naming itself; a listed check that ran is a warning.
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <math_check.hpp>
#include <memory>
#include <optional>
#include <report.hpp>
#include <runner.hpp>
#include <set>
#include <sstream>
#include <string>
#include <thread>

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

// The checks a kind of device may skip: "suite/name" per line, `#` starts a comment.
struct AllowedSkips {
  std::string path;
  std::set<std::string> names;
};

// The allowlist of the device's implementation ("pocl", "oclgrind"); nullopt when
// XGPU_CONFORM_ALLOWED_SKIPS is unset (a run by hand), an empty list when it has no file.
std::optional<AllowedSkips> allowed_skips(const xgpu::Device& device) {
  const char* folder = std::getenv("XGPU_CONFORM_ALLOWED_SKIPS");
  if (folder == nullptr || *folder == '\0') return std::nullopt;
  AllowedSkips allowed{std::string(folder) + "/" + device.info().implementation + ".txt", {}};
  std::ifstream in(allowed.path);
  for (std::string line; std::getline(in, line);) {
    line = line.substr(0, line.find('#'));
    const std::size_t first = line.find_first_not_of(" \t");
    if (first == std::string::npos) continue;
    allowed.names.insert(line.substr(first, line.find_last_not_of(" \t") + 1 - first));
  }
  return allowed;
}

}  // namespace

TEST_CASE("every conformance check on every device", "[conform][checks]") {
  static const Registry registry = all_checks();
  REQUIRE(!xgpu::devices().empty());
  for (const xgpu::Device& device : xgpu::devices()) {
    const std::optional<AllowedSkips> allowed = allowed_skips(device);
    for (const Check& check : registry.checks()) {
      const std::string name = check.suite + "/" + check.name;
      DYNAMIC_SECTION(device.describe() << " " << name) {
        const Result result = run_check(check, env_for(device));
        const bool listed = allowed && allowed->names.count(name) != 0;
        if (result.outcome == Outcome::skip && !allowed) {
          WARN("SKIPPED " << name << ": " << result.detail);
        } else if (result.outcome == Outcome::skip) {
          if (listed) {
            SUCCEED("skipped, as " << allowed->path << " allows: " << result.detail);
          } else {
            FAIL_CHECK("newly skipped: " << name << " (" << result.detail << ") on "
                                         << device.describe() << "; if that is right, add it "
                                         << "with the reason to the table of known drivers, "
                                         << "known_drivers.def");
          }
        } else {
          INFO(name << ": " << result.detail);
          CHECK(result.outcome == Outcome::pass);
          if (listed) {
            WARN(name << " is listed in " << allowed->path << " but no longer skips: "
                      << "remove it from known_drivers.def");
          }
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
  RunOptions quick;
  quick.quick = true;
  const DeviceReport report = run_device(registry, device, quick);
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
  RunOptions selftest = quick;
  selftest.suites = {"selftest"};
  const DeviceReport good = run_device(registry, device, selftest);
  CHECK(unknown_suite(registry, {"selftest", "nope"}) == "nope");
  DeviceReport fixed = good;
  fixed.results[0].result = pass();
  fixed.results[2].result = pass();
  CHECK(exit_status({fixed}) == 0);
  const std::vector<std::string> changes = compare_baseline(to_json(reports), {fixed});
  REQUIRE(changes.size() == 2);
  CHECK(changes[0].find("selftest/wrong_reference: fail -> pass") != std::string::npos);
}

TEST_CASE("a check's output goes to its record, and fd 2 comes back", "[conform][runner]") {
  // fd 2's file before: the same one must be back after the run.
  struct stat before {
  }, after{};
  REQUIRE(fstat(STDERR_FILENO, &before) == 0);
  Registry registry;
  registry.add("selftest", "noisy", "", [](Env&) {
    const char driver[] = "1 error generated.\n";  // as a driver's compiler writes it
    if (write(STDERR_FILENO, driver, sizeof driver - 1) != sizeof driver - 1) return fail("write");
    std::cerr << "from std::cerr\n";
    std::thread([] { std::fputs("from another thread\n", stderr); }).join();
    return pass();
  });
  registry.add("selftest", "throws", "", [](Env&) -> Result {
    std::fputs("before the throw\n", stderr);
    throw std::runtime_error("boom");
  });
  registry.add("selftest", "quiet", "", [](Env&) { return pass(); });
  RunOptions quick;
  quick.quick = true;
  const DeviceReport report = run_device(registry, xgpu::devices().at(0), quick);
  REQUIRE(report.results.size() == 3);
  CHECK(report.results[0].result.outcome == Outcome::pass);
  const std::string& noisy = report.results[0].output;
  CHECK(noisy.find("1 error generated.\n") != std::string::npos);
  CHECK(noisy.find("from std::cerr\n") != std::string::npos);
  CHECK(noisy.find("from another thread\n") != std::string::npos);
  CHECK(report.results[1].output == "before the throw\n");
  CHECK(report.results[2].output.empty());
  REQUIRE(fstat(STDERR_FILENO, &after) == 0);
  CHECK((after.st_dev == before.st_dev && after.st_ino == before.st_ino));
  // The records reach both reports.
  CHECK(to_json({report})["devices"][0]["results"][1]["output"] == "before the throw\n");
  std::ostringstream junit;
  write_junit(junit, {report});
  CHECK(junit.str().find("<system-err>before the throw\n</system-err>") != std::string::npos);
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
