// One GPU is one device (runtime/src/physical.cpp): which devices are aliases, which alias the
// backend order prefers, and XGPU_BACKEND_ORDER's parsing. White-box: device records made up
// here, of made-up modules, so every identity combination is covered without a GPU; the
// registry's use of them on real modules is in core/test_aliases.cpp.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "physical.hpp"
#include "registry.hpp"

namespace {

struct Fixture {
  std::vector<std::unique_ptr<xgpu::detail::Module>> modules;
  std::vector<std::unique_ptr<xgpu::detail::DeviceRecord>> records;

  const xgpu::detail::Module* module(const std::string& name) {
    for (const auto& m : modules)
      if (m->name == name) return m.get();
    modules.push_back(std::make_unique<xgpu::detail::Module>());
    modules.back()->name = name;
    return modules.back().get();
  }
  xgpu::detail::DeviceRecord* add(const std::string& backend, const std::string& uuid,
                                  const std::string& pci = {}) {
    auto record = std::make_unique<xgpu::detail::DeviceRecord>();
    record->module = module(backend);
    record->info.backend = backend;
    record->info.uuid = uuid;
    record->info.pci_bus_id = pci;
    record->global_index = records.size();
    records.push_back(std::move(record));
    return records.back().get();
  }
  void link() {
    std::vector<xgpu::detail::DeviceRecord*> all;
    for (const auto& r : records) all.push_back(r.get());
    xgpu::detail::link_aliases(all);
  }
};

bool aliases(const xgpu::detail::DeviceRecord* a, const xgpu::detail::DeviceRecord* b) {
  for (const auto* alias : a->aliases)
    if (alias == b) return true;
  return false;
}

const std::string kUuid = "a0a1a2a3a4a5a6a7a8a9aaabacadaeaf";
const std::string kOther = "00112233445566778899aabbccddeeff";

const std::vector<std::string> kKnown = {"cuda", "hip", "level_zero", "opencl", "profile"};

}  // namespace

TEST_CASE("devices of two modules with one UUID are aliases", "[physical]") {
  Fixture f;
  auto* opencl = f.add("opencl", kUuid, "0000:65:00.0");
  auto* cuda = f.add("cuda", kUuid, "0000:65:00.0");
  auto* other = f.add("cuda", kOther, "0000:66:00.0");
  f.link();
  CHECK(aliases(opencl, cuda));
  CHECK(aliases(cuda, opencl));
  CHECK(opencl->aliases.size() == 1);
  CHECK(other->aliases.empty());
  CHECK(opencl->physical_id == "uuid:" + kUuid);
  CHECK(cuda->physical_id == opencl->physical_id);
  CHECK(other->physical_id == "uuid:" + kOther);
}

TEST_CASE("a device without a UUID is matched by its PCI bus id", "[physical]") {
  Fixture f;
  // An OpenCL driver too old for cl_khr_device_uuid still reports its PCI address.
  auto* opencl = f.add("opencl", "", "0000:65:00.0");
  auto* cuda = f.add("cuda", kUuid, "0000:65:00.0");
  f.link();
  CHECK(aliases(opencl, cuda));
  // The group's id is the UUID, whoever reports it.
  CHECK(opencl->physical_id == "uuid:" + kUuid);
  CHECK(cuda->physical_id == "uuid:" + kUuid);
}

TEST_CASE("devices are never merged on a guess", "[physical]") {
  SECTION("two UUIDs that differ decide, whatever the PCI bus ids say") {
    Fixture f;
    auto* a = f.add("opencl", kUuid, "0000:65:00.0");
    auto* b = f.add("cuda", kOther, "0000:65:00.0");
    f.link();
    CHECK_FALSE(aliases(a, b));
  }
  SECTION("two devices of one module stay two, even with one identity") {
    Fixture f;
    auto* a = f.add("opencl", kUuid);
    auto* b = f.add("opencl", kUuid);
    auto* c = f.add("cuda", kUuid);
    f.link();
    CHECK_FALSE(aliases(a, b));
    // The first of them takes the other module's device; the second stays alone.
    CHECK(aliases(a, c));
    CHECK(b->aliases.empty());
  }
  SECTION("a device with no identity is never an alias, and has no physical id") {
    Fixture f;
    auto* pocl = f.add("opencl", "");
    auto* profile = f.add("profile", "");
    f.link();
    CHECK(pocl->aliases.empty());
    CHECK(profile->aliases.empty());
    CHECK(pocl->physical_id.empty());
  }
}

TEST_CASE("the backend order picks the alias selectors see", "[physical]") {
  Fixture f;
  auto* cuda = f.add("cuda", kUuid);  // loaded first, as file-name order loads it
  auto* opencl = f.add("opencl", kUuid);
  auto* stub = f.add("stub", kUuid);  // a module the order does not name
  f.link();
  auto any = [](const xgpu::detail::DeviceRecord&) { return true; };
  CHECK(xgpu::detail::preferred_alias(*cuda, {"opencl", "cuda"}, any) == opencl);
  CHECK(xgpu::detail::preferred_alias(*stub, {"opencl", "cuda"}, any) == opencl);
  CHECK(xgpu::detail::preferred_alias(*opencl, {"cuda", "opencl"}, any) == cuda);
  // Unnamed modules come last, in load order.
  CHECK(xgpu::detail::preferred_alias(*opencl, {"stub"}, any) == stub);
  CHECK(xgpu::detail::preferred_alias(*opencl, {}, any) == cuda);
  // Only usable (visible) aliases count.
  auto not_opencl = [&](const xgpu::detail::DeviceRecord& r) { return &r != opencl; };
  CHECK(xgpu::detail::preferred_alias(*opencl, {"opencl", "cuda"}, not_opencl) == cuda);
  auto none = [](const xgpu::detail::DeviceRecord&) { return false; };
  CHECK(xgpu::detail::preferred_alias(*opencl, {"opencl"}, none) == nullptr);
}

TEST_CASE("XGPU_BACKEND_ORDER is read and checked", "[physical]") {
  using xgpu::detail::parse_backend_order;
  // Unset or empty: the registry's default, the OpenCL module first.
  CHECK(parse_backend_order("", kKnown) == std::vector<std::string>{"opencl", "cuda"});
  CHECK(parse_backend_order(" CUDA , opencl", kKnown) ==
        std::vector<std::string>{"cuda", "opencl"});
  CHECK(parse_backend_order("cuda", kKnown) == std::vector<std::string>{"cuda"});
  auto refused = [](const char* value, std::vector<std::string> words) {
    INFO("XGPU_BACKEND_ORDER=" << value);
    try {
      parse_backend_order(value, kKnown);
      FAIL("accepted");
    } catch (const xgpu::Error& error) {
      CHECK(error.code() == xgpu::Errc::invalid_argument);
      words.push_back("XGPU_BACKEND_ORDER");
      for (const std::string& word : words) CHECK_THAT(error.what(), Catch::Contains(word));
    }
  };
  refused("cdua,opencl", {"unknown backend 'cdua'", "did you mean 'cuda'"});
  refused("opencl,opencl", {"'opencl' is named twice"});
  refused("opencl,,cuda", {"empty name"});
  refused("vulkan", {"unknown backend 'vulkan'", "known: cuda"});
}
