// Device selection over the real device list: the selector grammar, comma lists, the
// XGPU_DEVICE default, the errors for bad selectors, and requirement filters.
#include "test_support.hpp"

using xgpu_test::capture_error;
using xgpu_test::check_error;
using xgpu_test::count_implementation;

namespace {
bool has_type(const xgpu::Device& device, std::uint32_t bit) {
  return (device.info().type & bit) != 0;
}
}  // namespace

TEST_CASE("type and wildcard and index selectors", "[selector]") {
  const std::vector<xgpu::Device> devices = xgpu::devices();
  REQUIRE_FALSE(devices.empty());
  CHECK(xgpu::select("*") == devices[0]);
  CHECK(xgpu::select("0") == devices[0]);
  CHECK(xgpu::select("opencl:0") == devices[0]);
  if (devices.size() > 1) {
    CHECK(xgpu::select("1") == devices[1]);
    CHECK(xgpu::select("*:1") == devices[1]);
  }
  CHECK(xgpu::select_all("*") == devices);

  const xgpu::Device cpu = xgpu::select("cpu");
  CHECK(has_type(cpu, xgpu::DeviceType::cpu));
  const std::vector<xgpu::Device> cpus = xgpu::select_all("cpu");
  REQUIRE_FALSE(cpus.empty());
  for (const xgpu::Device& device : cpus) {
    CHECK(has_type(device, xgpu::DeviceType::cpu));
    // Oclgrind claims every type; a type word must not pick the simulator.
    CHECK_FALSE(xgpu_test::is_oclgrind(device));
  }
  CHECK(xgpu::select_all("cpu").size() == count_implementation("pocl"));
  CHECK(xgpu::select("opencl:cpu:0") == cpus[0]);
  CHECK(xgpu::select("cpu:0") == cpus[0]);
  CHECK(xgpu::select("opencl:cpu") == cpus[0]);
  if (cpus.size() > 1) CHECK(xgpu::select("opencl:cpu:1") == cpus[1]);
  // select_all keeps device order.
  for (std::size_t i = 1; i < cpus.size(); ++i) CHECK(cpus[i - 1].index() < cpus[i].index());
}

TEST_CASE("vendor and implementation selectors", "[selector]") {
  const xgpu::Device pocl = xgpu::select("pocl");
  CHECK(pocl.info().implementation == "pocl");
  CHECK(xgpu::select("pocl:0") == pocl);
  const std::vector<xgpu::Device> pocls = xgpu::select_all("pocl");
  CHECK(pocls.size() == count_implementation("pocl"));
  if (pocls.size() >= 2) {
    const xgpu::Device second = xgpu::select("pocl:1");
    CHECK(second.info().implementation == "pocl");
    CHECK(second != pocl);
    CHECK(second == pocls[1]);
  } else {
    check_error(capture_error([] { xgpu::select("pocl:1"); }), xgpu::Errc::no_device, {"pocl:1"});
  }

  if (count_implementation("oclgrind") > 0) {
    CHECK(xgpu::select("oclgrind").info().implementation == "oclgrind");
    // The first term that matches wins, whatever the device order.
    CHECK(xgpu::select("oclgrind,pocl").info().implementation == "oclgrind");
    CHECK(xgpu::select("pocl,oclgrind").info().implementation == "pocl");
  } else {
    check_error(capture_error([] { xgpu::select("oclgrind"); }), xgpu::Errc::no_device,
                {"oclgrind"});
    CHECK_FALSE(xgpu::find("oclgrind"));
  }

  // A known vendor with no device here parses and matches nothing.
  if (xgpu::select_all("nvidia").empty()) {
    check_error(capture_error([] { xgpu::select("nvidia"); }), xgpu::Errc::no_device, {"nvidia"});
    CHECK_FALSE(xgpu::find("nvidia").has_value());
    CHECK(xgpu::select("nvidia,pocl").info().implementation == "pocl");
    CHECK(xgpu::select("nvidia:0, pocl").info().implementation == "pocl");
  }
}

TEST_CASE("vendor words match the hardware maker or the driver maker", "[selector]") {
  for (const char* vendor : {"intel", "amd", "nvidia", "pocl", "oclgrind", "simulator"}) {
    INFO("selector " << vendor);
    std::size_t expected = 0;
    for (const xgpu::Device& device : xgpu::devices()) {
      expected += device.info().hardware_vendor == vendor || device.info().implementation == vendor;
    }
    const std::vector<xgpu::Device> matched = xgpu::select_all(vendor);
    CHECK(matched.size() == expected);
    for (const xgpu::Device& device : matched) {
      INFO(device.describe());
      CHECK((device.info().hardware_vendor == vendor || device.info().implementation == vendor));
    }
  }
  // Selectors ignore case, as vendor names are written both ways.
  CHECK(xgpu::select("PoCL") == xgpu::select("pocl"));
}

TEST_CASE("select_all unions every term in term order", "[selector]") {
  // The matches of the first term come first, then the new matches of the next ones.
  std::vector<xgpu::Device> expected = xgpu::select_all("pocl");
  for (const xgpu::Device& device : xgpu::devices()) {
    if (device.info().implementation != "pocl") expected.push_back(device);
  }
  CHECK(xgpu::select_all("pocl,*") == expected);
  CHECK(xgpu::select_all("pocl,*").size() == xgpu::devices().size());
  CHECK(xgpu::select_all("pocl,pocl") == xgpu::select_all("pocl"));
}

TEST_CASE("bad selectors are errors that name the mistake", "[selector]") {
  check_error(capture_error([] { xgpu::select("gpu::x:y"); }), xgpu::Errc::invalid_selector,
              {"gpu::x:y"});
  check_error(capture_error([] { xgpu::select("nvidai"); }), xgpu::Errc::invalid_selector,
              {"nvidai"});
  check_error(capture_error([] { xgpu::select("pocl,nvidai"); }), xgpu::Errc::invalid_selector,
              {"nvidai"});
  check_error(capture_error([] { xgpu::select("cpu:-1"); }), xgpu::Errc::invalid_selector, {"-1"});
  check_error(capture_error([] { xgpu::select("pocl,,cpu"); }), xgpu::Errc::invalid_selector);
  check_error(capture_error([] { xgpu::select("  "); }), xgpu::Errc::invalid_selector);
  check_error(capture_error([] { xgpu::select("cpu:"); }), xgpu::Errc::invalid_selector, {"cpu:"});
  check_error(capture_error([] { xgpu::select("opencl:cpu:0:1"); }), xgpu::Errc::invalid_selector,
              {"opencl:cpu:0:1"});
  check_error(capture_error([] { xgpu::find("gpu::x:y"); }), xgpu::Errc::invalid_selector,
              {"gpu::x:y"});
  check_error(capture_error([] { xgpu::select("99"); }), xgpu::Errc::no_device, {"99"});
  check_error(capture_error([] { xgpu::select("cpu:99"); }), xgpu::Errc::no_device, {"cpu:99"});
  check_error(capture_error([] { xgpu::select("cuda:0"); }), xgpu::Errc::no_device, {"cuda"});
  CHECK_FALSE(xgpu::find("99").has_value());
  CHECK(xgpu::select_all("99").empty());
}

TEST_CASE("mistyped selector words and requirement keys get a suggestion", "[selector]") {
  // Vendors, types and backends: a swap, a missing letter, a wrong letter.
  check_error(capture_error([] { xgpu::select("nvidai"); }), xgpu::Errc::invalid_selector,
              {"'nvidai': did you mean 'nvidia'?"});
  check_error(capture_error([] { xgpu::select("pocl,gpuu"); }), xgpu::Errc::invalid_selector,
              {"'gpuu': did you mean 'gpu'?"});
  check_error(capture_error([] { xgpu::select("opencal"); }), xgpu::Errc::invalid_selector,
              {"'opencal': did you mean 'opencl'?"});
  check_error(capture_error([] { xgpu::select("opnecl:cpu:0"); }), xgpu::Errc::invalid_selector,
              {"unknown backend 'opnecl': did you mean 'opencl'?"});
  check_error(capture_error([] { xgpu::select("Oclgrnd"); }), xgpu::Errc::invalid_selector,
              {"did you mean 'oclgrind'?"});
  // Nothing near enough: the list of words alone, no guess.
  const xgpu::Error far = capture_error([] { xgpu::select("quantum"); });
  check_error(far, xgpu::Errc::invalid_selector, {"'quantum'", "expected a type"});
  CHECK(std::string(far.what()).find("did you mean") == std::string::npos);
  const xgpu::Error short_word = capture_error([] { xgpu::select("xy"); });
  CHECK(std::string(short_word.what()).find("did you mean") == std::string::npos);
  check_error(capture_error([] { xgpu::Requirements::parse("ecc,fpp64"); }),
              xgpu::Errc::invalid_selector, {"'fpp64': did you mean 'fp64'?"});
  check_error(capture_error([] { xgpu::Requirements::parse("mme>=1G"); }),
              xgpu::Errc::invalid_selector, {"'mme': did you mean 'mem'?"});
}

// XGPU_DEVICE is read once per process: the CTest entries unit.icd.settings.* set one value
// each (tests/CMakeLists.txt); without it (every other entry) the default applies.
TEST_CASE("XGPU_DEVICE is the default selector", "[.env_device]") {
  const std::string value = xgpu_test::env("XGPU_DEVICE").value_or("");
  INFO("XGPU_DEVICE=" << value);
  if (value == "pocl") {
    CHECK(xgpu::select().info().implementation == "pocl");
  } else if (value == "oclgrind" && count_implementation("oclgrind") > 0) {
    CHECK(xgpu::select().info().implementation == "oclgrind");
    CHECK(xgpu::select("pocl").info().implementation == "pocl");  // an explicit one wins
  } else if (value == "oclgrind") {
    check_error(capture_error([] { xgpu::select(); }), xgpu::Errc::no_device,
                {"oclgrind", "XGPU_DEVICE"});
  } else if (value == "nvidai") {
    check_error(capture_error([] { xgpu::select(); }), xgpu::Errc::invalid_selector, {"nvidai"});
  } else if (value == "99") {
    check_error(capture_error([] { xgpu::select(); }), xgpu::Errc::no_device, {"99"});
  } else {
    FAIL("no expectation for XGPU_DEVICE='" << value
                                            << "': the entry must set pocl, oclgrind, "
                                               "nvidai or 99");
  }
}

TEST_CASE("without XGPU_DEVICE the default selector prefers a real device", "[selector]") {
  REQUIRE_FALSE(xgpu_test::env("XGPU_DEVICE"));  // the CTest entries unset it
  // With no GPU here, the default prefers a real CPU over the simulator.
  const xgpu::Device chosen = xgpu::select();
  CHECK(chosen);
  if (xgpu::select_all("gpu").empty() && xgpu::select_all("accelerator").empty()) {
    CHECK(chosen.info().implementation == "pocl");
  }
}

TEST_CASE("requirements parse into terms", "[selector]") {
  const xgpu::Requirements requirements =
      xgpu::Requirements::parse("mem>=1G,fp64,cu>=1,wg>=64,ext=cl_khr_global_int32_base_atomics");
  const auto& terms = requirements.terms();
  REQUIRE(terms.size() == 5);
  CHECK(terms[0].key == "mem");
  CHECK(terms[0].op == ">=");
  CHECK(terms[0].number == (std::uint64_t{1} << 30));
  CHECK(terms[1].key == "fp64");
  CHECK(terms[1].op.empty());
  CHECK(terms[2].key == "cu");
  CHECK(terms[2].number == 1);
  CHECK(terms[3].key == "wg");
  CHECK(terms[3].number == 64);
  CHECK(terms[4].key == "ext");
  CHECK(terms[4].op == "=");
  CHECK(terms[4].value == "cl_khr_global_int32_base_atomics");

  xgpu::DeviceInfo info;
  info.global_memory = std::uint64_t{2} << 30;
  info.fp64 = true;
  info.compute_units = 4;
  info.max_work_group_size = 256;
  info.extensions = {"cl_khr_fp64", "cl_khr_global_int32_base_atomics"};
  std::string why_not;
  CHECK(requirements.met_by(info, &why_not));

  info.fp64 = false;
  CHECK_FALSE(requirements.met_by(info, &why_not));
  CHECK_THAT(why_not, Catch::Matchers::Contains("fp64"));
  info.fp64 = true;
  info.global_memory = std::uint64_t{512} << 20;
  CHECK_FALSE(requirements.met_by(info, &why_not));
  CHECK_THAT(why_not, Catch::Matchers::Contains("mem"));
  info.global_memory = std::uint64_t{1} << 30;  // exactly the bound meets ">="
  CHECK(requirements.met_by(info));
  info.extensions = {"cl_khr_fp64"};
  CHECK_FALSE(requirements.met_by(info, &why_not));
  CHECK_THAT(why_not, Catch::Matchers::Contains("cl_khr_global_int32_base_atomics"));

  CHECK(xgpu::Requirements::parse("mem>=512M").terms().at(0).number == (512u << 20));
}

TEST_CASE("the real devices meet requirements they should", "[selector]") {
  const xgpu::Device pocl = xgpu::select("pocl");
  CHECK(xgpu::Requirements::parse("cu>=1,wg>=1,mem>=1M").met_by(pocl.info()));
  std::string why_not;
  CHECK_FALSE(xgpu::Requirements::parse("mem>=1000000G").met_by(pocl.info(), &why_not));
  CHECK_FALSE(why_not.empty());
}

TEST_CASE("unparseable requirements are errors naming the term", "[selector]") {
  check_error(capture_error([] { xgpu::Requirements::parse("mem>=lots"); }),
              xgpu::Errc::invalid_selector, {"mem>=lots"});
  check_error(capture_error([] { xgpu::Requirements::parse("fp64,colour=blue"); }),
              xgpu::Errc::invalid_selector, {"colour"});
  check_error(capture_error([] { xgpu::Requirements::parse("mem>>1G"); }),
              xgpu::Errc::invalid_selector, {"mem>>1G"});
}
