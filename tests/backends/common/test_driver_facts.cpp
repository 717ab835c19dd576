// The driver facts (backends/common/xgpu/common/drivers/): the one version parser on the strings
// real drivers report (clinfo's "Platform Version", "Device Version", "Driver Version" and
// "Device OpenCL C Version" lines of NVIDIA, AMD ROCm, Intel NEO, PoCL, Oclgrind and Apple), and
// the table of known implementations. No device needed.
#include <algorithm>
#include <catch2/catch.hpp>
#include <regex>
#include <set>
#include <string>

#include "xgpu/common/drivers/known_drivers.hpp"
#include "xgpu/common/drivers/version.hpp"

using namespace xgpu::drivers;

namespace {

// One clinfo device as its driver writes it.
struct Reported {
  const char* who;
  const char* platform_version;
  const char* device_version;
  const char* driver_version;
  const char* language_version;
  Version opencl, opencl_c, driver, implementation, newest_c;
};

const Reported kReported[] = {
    {"NVIDIA (CUDA 12.2, driver 535)",
     "OpenCL 3.0 CUDA 12.2.149",
     "OpenCL 3.0 CUDA",
     "535.104.05",
     "OpenCL C 1.2 ",
     {3, 0},
     {1, 2},
     {535, 104, 5},
     {12, 2, 149},
     {3, 0}},
    {"NVIDIA (driver 525)",
     "OpenCL 3.0 CUDA 12.0.151",
     "OpenCL 3.0 CUDA",
     "525.125.06",
     "OpenCL C 1.2 ",
     {3, 0},
     {1, 2},
     {525, 125, 6},
     {12, 0, 151},
     {3, 0}},
    {"AMD ROCm (gfx902)",
     "OpenCL 2.1 AMD-APP (2982.0)",
     "OpenCL 2.0 ",
     "2982.0 (HSA1.1,LC)",
     "OpenCL C 2.0 ",
     {2, 0},
     {2, 0},
     {2982, 0},
     {2982, 0},
     {2, 0}},
    {"AMD ROCm (gfx701, a 1.2 device with OpenCL C 2.0)",
     "OpenCL 2.0 AMD-APP.internal (2949.0)",
     "OpenCL 1.2 ",
     "2949.0 (HSA1.1,LC)",
     "OpenCL C 2.0 ",
     {1, 2},
     {2, 0},
     {2949, 0},
     {2949, 0},
     {2, 0}},
    {"Intel NEO (UHD 770)",
     "OpenCL 3.0 ",
     "OpenCL 3.0 NEO ",
     "25.18.33578.6",
     "OpenCL C 1.2 ",
     {3, 0},
     {1, 2},
     {25, 18, 33578, 6},
     {},
     {3, 0}},
    {"PoCL 3.1 (Debian)",
     "OpenCL 3.0 PoCL 3.1+debian  Linux, None+Asserts, RELOC, SPIR, LLVM 15.0.6, SLEEF, DISTRO, "
     "POCL_DEBUG",
     "OpenCL 3.0 PoCL HSTR: pthread-x86_64-pc-linux-gnu-skylake-avx512",
     "3.1+debian",
     "OpenCL C 1.2 PoCL",
     {3, 0},
     {1, 2},
     {3, 1},
     {3, 1},
     {3, 0}},
    {"Oclgrind 21.10",
     "OpenCL 1.2 (Oclgrind 21.10)",
     "OpenCL 1.2 (Oclgrind 21.10)",
     "Oclgrind 21.10",
     "OpenCL C 1.2 (Oclgrind 21.10)",
     {1, 2},
     {1, 2},
     {21, 10},
     {21, 10},
     {1, 2}},
    {"Apple M1",
     "OpenCL 1.2 (May  8 2021 03:14:28)",
     "OpenCL 1.2 ",
     "1.2 1.0",
     "OpenCL C 1.2 ",
     {1, 2},
     {1, 2},
     {1, 2},
     {},
     {1, 2}},
    {"Apple (Intel CPU)",
     "OpenCL 1.2 (Nov  2 2015 15:02:14)",
     "OpenCL 1.2 ",
     "1.1",
     "OpenCL C 1.2 ",
     {1, 2},
     {1, 2},
     {1, 1},
     {},
     {1, 2}},
};

}  // namespace

TEST_CASE("one version parser reads what real drivers report", "[driver_facts]") {
  for (const Reported& r : kReported) {
    INFO(r.who);
    CHECK(opencl_version(r.device_version) == r.opencl);
    CHECK(opencl_c_version(r.language_version) == r.opencl_c);
    CHECK(driver_version(r.driver_version) == r.driver);
    CHECK(implementation_version(r.platform_version) == r.implementation);
    CHECK(implementation_version(r.platform_version).empty() == r.implementation.empty());
    CHECK(newest_opencl_c(r.language_version, r.device_version) == r.newest_c);
  }
  // The platform's OpenCL version too, and text that is not a version of that kind.
  CHECK(opencl_version("OpenCL 2.1 AMD-APP (2982.0)") == Version{2, 1});
  CHECK(opencl_version("  OpenCL 1.1 Mesa 24.0.6") == Version{1, 1});
  CHECK(opencl_version("OpenCL C 1.2 ").empty());
  CHECK(opencl_version("3.0").empty());
  CHECK(opencl_c_version("OpenCL 3.0 CUDA").empty());
  CHECK(driver_version("no number").empty());
  CHECK(implementation_version("OpenCL 1.1 Mesa 24.0.6") == Version{24, 0, 6});
  CHECK(implementation_version("OpenCL 3.0 (Build 0)").empty());
  CHECK(implementation_version("CUDA 12.2").empty());
  // A dot is part of a version only when a digit follows.
  CHECK(parse_version("v3.1.") == Version{3, 1});
  CHECK(parse_version("10.17.5 355.10.05.45f01") == Version{10, 17, 5});
}

TEST_CASE("versions compare number by number", "[driver_facts]") {
  CHECK(Version{3, 1} == Version{3, 1, 0});
  CHECK(Version{3, 1} < Version{3, 10});
  CHECK(Version{3, 9} < Version{3, 10});
  CHECK(Version{21, 10} > Version{3, 1});
  CHECK(Version{} < Version{0});
  CHECK(Version{} == Version{});
  CHECK(Version{535, 104, 5}.text() == "535.104.5");
  CHECK(Version{}.text().empty());
}

TEST_CASE("the OpenCL C of a build's options", "[driver_facts]") {
  CHECK(cl_std_version("-cl-std=CL2.0") == Version{2, 0});
  CHECK(cl_std_version("-O2 -cl-std=CL3.0 -cl-mad-enable") == Version{3, 0});
  CHECK(cl_std_version("-cl-std=CL1.2 -cl-std=CL2.0") == Version{2, 0});  // the last wins
  CHECK(cl_std_version("-cl-std=cl2.0") == Version{2, 0});
  CHECK(cl_std_version("-cl-fast-relaxed-math").empty());
  CHECK(cl_std_version("-cl-std=CLC++").empty());
  CHECK(cl_std_version("-Dx=-cl-std=CL2.0").empty());  // inside another option's value
  // Numbers past an unsigned long stay the largest rather than wrap to an old version (a
  // profile or a build could then pass a limit: the profile module's fuzzing found one).
  CHECK(cl_std_version("-cl-std=CL2147483647.0") > Version{3, 0});
  CHECK(cl_std_version("-cl-std=CL18446744073709551616.0") > Version{3, 0});
  CHECK(opencl_c_version("OpenCL C 99999999999999999999999999.9") > Version{3, 0});
  CHECK(cl_std_option(Version{3, 0}) == "-cl-std=CL3.0");
  CHECK(cl_std_option(Version{2, 0}) == "-cl-std=CL2.0");
  CHECK(cl_std_option(Version{1, 2}).empty());
  CHECK(cl_std_option(Version{}).empty());
}

TEST_CASE("a fact applies by implementation and driver version", "[driver_facts]") {
  auto fact = [](const char* implementation, const char* first, const char* last) {
    return DriverFact{implementation,
                      first,
                      last,
                      Affects::workaround,
                      Workaround::serialize_compiles,
                      "",
                      "",
                      "",
                      "test"};
  };
  const DriverFact open = fact("pocl", "", "");
  CHECK(applies(open, "pocl", "3.1+debian"));
  CHECK(applies(open, "pocl", "no number"));
  CHECK_FALSE(applies(open, "nvidia", "535.104.05"));
  // Ranges are inclusive and compared number by number.
  const DriverFact ranged = fact("pocl", "1.8", "3.1");
  CHECK_FALSE(applies(ranged, "pocl", "1.7"));
  CHECK(applies(ranged, "pocl", "1.8"));
  CHECK(applies(ranged, "pocl", "3.1+debian"));
  CHECK_FALSE(applies(ranged, "pocl", "3.10"));
  CHECK_FALSE(applies(ranged, "pocl", "no number"));
  const DriverFact from = fact("oclgrind", "21.10", "");
  CHECK(applies(from, "oclgrind", "Oclgrind 21.10"));
  CHECK(applies(from, "oclgrind", "Oclgrind 22.0"));
  CHECK_FALSE(applies(from, "oclgrind", "Oclgrind 19.10"));
}

TEST_CASE("the table of known implementations is well formed", "[driver_facts]") {
  std::set<std::string> workarounds;
  for (const DriverFact& fact : known_driver_facts()) {
    INFO(fact.implementation << ": " << fact.why);
    CHECK(std::string(fact.implementation).find_first_not_of("abcdefghijklmnopqrstuvwxyz_") ==
          std::string::npos);
    CHECK(std::string(fact.why).size() > 20);
    for (const char* bound : {fact.first_version, fact.last_version})
      CHECK((bound[0] == '\0' || !parse_version(bound).empty()));
    if (fact.affects == Affects::workaround) {
      CHECK(fact.workaround != Workaround::none);
      CHECK(std::string(fact.checks).empty());
      workarounds.insert(workaround_name(fact.workaround));
    } else {
      CHECK(fact.workaround == Workaround::none);
      // Every check named is "suite/name", and every regex compiles.
      CHECK(std::regex_match(std::string(fact.checks), std::regex(R"(\w+/\w+( \w+/\w+)*)")));
      CHECK_NOTHROW(std::regex(fact.failure));
      // An input is named exactly where something is left out.
      CHECK((fact.affects == Affects::avoided) == (fact.input[0] != '\0'));
    }
  }
  // Each workaround the module implements is applied to some implementation.
  CHECK(workarounds.size() == static_cast<std::size_t>(Workaround::count) - 1);
  const std::vector<std::string> implementations = known_implementations();
  CHECK(std::is_sorted(implementations.begin(), implementations.end()));
  for (const char* tested : {"oclgrind", "pocl"})
    CHECK(std::count(implementations.begin(), implementations.end(), tested) == 1);
}

TEST_CASE("the checks a device may skip come from the table", "[driver_facts]") {
  // Skips of both kinds (a wrong result, a missing feature) and of every fact that names
  // several checks, each once, sorted; a fact's checks are allowed on a version in its range.
  for (const char* implementation : {"pocl", "oclgrind"}) {
    const std::vector<std::string> skips = allowed_skips(implementation, "");
    CHECK(std::is_sorted(skips.begin(), skips.end()));
    CHECK(std::adjacent_find(skips.begin(), skips.end()) == skips.end());
  }
  for (const DriverFact& fact : known_driver_facts()) {
    if (fact.affects != Affects::wrong_result && fact.affects != Affects::missing_feature) continue;
    const char* version = fact.first_version[0] ? fact.first_version : fact.last_version;
    const std::vector<std::string> skips = allowed_skips(fact.implementation, version);
    for (const std::string& check : checks_of(fact))
      CHECK(std::count(skips.begin(), skips.end(), check) == 1);
  }
  const std::vector<std::string> pocl = allowed_skips("pocl", "3.1+debian");
  for (const char* check : {"math/half_arithmetic", "math/double_exp", "workgroups/sub_groups"})
    CHECK(std::count(pocl.begin(), pocl.end(), check) == 1);
  // Oclgrind's: a fact naming two checks gives both.
  const std::vector<std::string> oclgrind = allowed_skips("oclgrind", "Oclgrind 21.10");
  for (const char* check : {"conversions/float_to_integer", "conversions/double_to_integer",
                            "compiler/link_missing_symbol", "integer/ctz"})
    CHECK(std::count(oclgrind.begin(), oclgrind.end(), check) == 1);
  // A crash or hang avoided is no allowed skip: the rest of the check runs.
  CHECK(std::count(pocl.begin(), pocl.end(), "compiler/binary_corrupt_rejected") == 0);
  CHECK(allowed_skips("nvidia", "535.104.05").empty());
  // The facts a check asks for, by kind and input.
  bool truncated_binary = false;
  for (const DriverFact* fact : facts_for("pocl", "3.1", Affects::avoided)) {
    if (std::string(fact->input) != "truncated_binary") continue;
    truncated_binary = true;
    CHECK(concerns(*fact, "compiler/binary_corrupt_rejected"));
    CHECK_FALSE(concerns(*fact, "compiler/binary_round_trip"));
  }
  CHECK(truncated_binary);
  std::set<Workaround> pocl_workarounds;
  for (const DriverFact* fact : facts_for("pocl", "3.1", Affects::workaround))
    pocl_workarounds.insert(fact->workaround);
  CHECK(pocl_workarounds.count(Workaround::serialize_compiles) == 1);
  CHECK(pocl_workarounds.count(Workaround::finish_queues_before_binary) == 1);
  CHECK(pocl_workarounds.count(Workaround::choose_local_size) == 1);
  CHECK(pocl_workarounds.count(Workaround::serialize_all_calls) == 0);
}
