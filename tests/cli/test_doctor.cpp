// Unit tests of `xgpu doctor`'s checks on fake systems: a temporary folder holds the device
// nodes (plain files with the owner, group and mode a real node would have), /proc, /sys,
// /etc/group and libraries a check reads, so NVIDIA, AMD and Intel findings are tested
// without the hardware. Each problem case has a healthy twin that must pass, so a check that
// always fails (or never does) is caught.
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <xgpu/common/settings.hpp>

#include "doctor.hpp"

using namespace xgpu::cli::doctor;
namespace fs = std::filesystem;

namespace {

class FakeRoot {
 public:
  FakeRoot() {
    char pattern[] = "/tmp/xgpu-doctor-XXXXXX";
    REQUIRE(mkdtemp(pattern) != nullptr);
    path_ = pattern;
  }
  ~FakeRoot() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  const std::string& path() const { return path_; }
  /// Writes `text` to <root><file>, making its folders; returns the full path.
  std::string write(const std::string& file, const std::string& text, mode_t mode = 0644) const {
    const std::string full = path_ + file;
    fs::create_directories(fs::path(full).parent_path());
    std::ofstream(full) << text;
    REQUIRE(chmod(full.c_str(), mode) == 0);
    return full;
  }
  gid_t group_of(const std::string& file) const {
    struct stat info {};
    REQUIRE(stat((path_ + file).c_str(), &info) == 0);
    return info.st_gid;
  }

 private:
  std::string path_;
};

// An ordinary user in no group but `groups`.
Identity user(std::vector<gid_t> groups = {}) {
  Identity who;
  who.uid = 4321;
  who.user = "alice";
  who.groups = std::move(groups);
  return who;
}

const Finding* find_subject(const Findings& findings, const std::string& subject) {
  for (const Finding& finding : findings) {
    if (finding.subject == subject) return &finding;
  }
  return nullptr;
}

std::size_t problems_in(const Findings& findings) { return count_problems(findings); }

}  // namespace

TEST_CASE("doctor: no sign of a vendor's hardware is not applicable, not a problem", "[doctor]") {
  FakeRoot root;
  for (const Findings& findings :
       {check_nvidia(root.path(), user()), check_amd(root.path(), user()),
        check_intel(root.path(), user())}) {
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].status == Status::not_applicable);
  }
}

TEST_CASE("doctor: NVIDIA device nodes without the kernel module", "[doctor]") {
  FakeRoot root;
  root.write("/dev/nvidia0", "", 0666);
  root.write("/dev/nvidiactl", "", 0666);
  root.write("/usr/lib/x86_64-linux-gnu/libnvidia-opencl.so.1", "");
  root.write("/usr/lib/x86_64-linux-gnu/libcuda.so.1", "");

  const Findings missing = check_nvidia(root.path(), user());
  const Finding* module = find_subject(missing, "kernel module");
  REQUIRE(module != nullptr);
  CHECK(module->status == Status::problem);
  CHECK_THAT(module->fix, Catch::Contains("modprobe nvidia"));
  CHECK(problems_in(missing) == 1);  // the nodes and libraries are fine

  SECTION("loaded per /proc/modules, with its driver version") {
    root.write("/proc/modules", "nvidia 56000000 12 nvidia_uvm, Live 0x0000000000000000\n");
    root.write("/proc/driver/nvidia/version",
               "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.14  Thu Feb 22 01:44:30 "
               "UTC 2024\n");
    const Findings fine = check_nvidia(root.path(), user());
    CHECK(problems_in(fine) == 0);
    CHECK_THAT(find_subject(fine, "kernel module")->detail, Catch::Contains("550.54.14"));
  }
  SECTION("loaded per /sys/module") {
    fs::create_directories(root.path() + "/sys/module/nvidia");
    CHECK(problems_in(check_nvidia(root.path(), user())) == 0);
  }
  SECTION("the libraries missing") {
    fs::remove(root.path() + "/usr/lib/x86_64-linux-gnu/libcuda.so.1");
    fs::create_directories(root.path() + "/sys/module/nvidia");
    const Findings findings = check_nvidia(root.path(), user());
    REQUIRE(find_subject(findings, "libcuda.so.1") != nullptr);
    CHECK(find_subject(findings, "libcuda.so.1")->status == Status::problem);
    CHECK(find_subject(findings, "libnvidia-opencl.so.1")->status == Status::ok);
  }
}

TEST_CASE("doctor: an NVIDIA GPU on PCI with no node at all", "[doctor]") {
  FakeRoot root;
  root.write("/sys/bus/pci/devices/0000:01:00.0/vendor", "0x10de\n");
  root.write("/sys/bus/pci/devices/0000:01:00.0/class", "0x030200\n");
  const Findings findings = check_nvidia(root.path(), user());
  CHECK(find_subject(findings, "GPU 0000:01:00.0") != nullptr);
  CHECK(find_subject(findings, "kernel module")->status == Status::problem);
  CHECK(find_subject(findings, "device nodes")->status == Status::problem);
}

TEST_CASE("doctor: a user outside the group owning an Intel render node", "[doctor]") {
  FakeRoot root;
  root.write("/dev/dri/renderD128", "", 0660);
  root.write("/sys/class/drm/renderD128/device/vendor", "0x8086\n");
  root.write("/proc/modules", "i915 3000000 20 - Live 0x0000000000000000\n");
  root.write("/etc/OpenCL/vendors/intel.icd",
             "/usr/lib/x86_64-linux-gnu/intel-opencl/libigdrcl.so\n");
  // As root this could be chown'ed to any gid; the node's own gid, left out of the user's
  // groups, tests the same decision without privileges.
  const gid_t render = root.group_of("/dev/dri/renderD128");
  root.write("/etc/group", "video:x:44:\nrender:x:" + std::to_string(render) + ":bob\n");

  const Findings outside = check_intel(root.path(), user({render + 1}));
  const Finding* node = find_subject(outside, "/dev/dri/renderD128");
  REQUIRE(node != nullptr);
  CHECK(node->status == Status::problem);
  CHECK_THAT(node->detail, Catch::Contains("not in group render"));
  CHECK_THAT(node->fix, Catch::Contains("sudo usermod -aG render $USER"));
  CHECK(problems_in(outside) == 1);

  SECTION("a member may open it") {
    CHECK(problems_in(check_intel(root.path(), user({render}))) == 0);
  }
  SECTION("added in /etc/group but not in this session: log in again") {
    root.write("/etc/group", "render:x:" + std::to_string(render) + ":bob,alice\n");
    const Finding* stale = find_subject(check_intel(root.path(), user()), "/dev/dri/renderD128");
    REQUIRE(stale != nullptr);
    CHECK(stale->status == Status::problem);
    CHECK_THAT(stale->fix, Catch::Contains("log out and in again"));
  }
  SECTION("a node anyone may open") {
    REQUIRE(chmod((root.path() + "/dev/dri/renderD128").c_str(), 0666) == 0);
    CHECK(problems_in(check_intel(root.path(), user())) == 0);
  }
}

TEST_CASE("doctor: AMD without the ROCm OpenCL runtime", "[doctor]") {
  FakeRoot root;
  root.write("/dev/kfd", "", 0666);
  root.write("/dev/dri/renderD129", "", 0666);
  root.write("/sys/class/drm/renderD129/device/vendor", "0x1002\n");
  fs::create_directories(root.path() + "/sys/module/amdgpu");

  const Findings missing = check_amd(root.path(), user());
  const Finding* runtime = find_subject(missing, "OpenCL runtime");
  REQUIRE(runtime != nullptr);
  CHECK(runtime->status == Status::problem);
  CHECK_THAT(runtime->fix, Catch::Contains("rocm-opencl-runtime"));
  CHECK(problems_in(missing) == 1);

  SECTION("ROCm's library in /opt/rocm/lib") {
    root.write("/opt/rocm/lib/libamdocl64.so", "");
    CHECK(problems_in(check_amd(root.path(), user())) == 0);
  }
  SECTION("an amdocl .icd file") {
    root.write("/etc/OpenCL/vendors/amdocl64_60200.icd", "libamdocl64.so\n");
    CHECK(problems_in(check_amd(root.path(), user())) == 0);
  }
  SECTION("no /dev/kfd") {
    fs::remove(root.path() + "/dev/kfd");
    root.write("/opt/rocm/lib/libamdocl64.so", "");
    const Finding* kfd = find_subject(check_amd(root.path(), user()), "/dev/kfd");
    REQUIRE(kfd != nullptr);
    CHECK(kfd->status == Status::problem);
  }
}

TEST_CASE("doctor: Intel without the NEO runtime", "[doctor]") {
  FakeRoot root;
  root.write("/sys/bus/pci/devices/0000:00:02.0/vendor", "0x8086\n");
  root.write("/sys/bus/pci/devices/0000:00:02.0/class", "0x030000\n");
  root.write("/dev/dri/renderD128", "", 0666);
  fs::create_directories(root.path() + "/sys/module/i915");

  const Findings missing = check_intel(root.path(), user());
  const Finding* runtime = find_subject(missing, "OpenCL runtime");
  REQUIRE(runtime != nullptr);
  CHECK(runtime->status == Status::problem);
  CHECK_THAT(runtime->fix, Catch::Contains("intel-opencl-icd"));
  CHECK(problems_in(missing) == 1);

  SECTION("libigdrcl.so in a folder ld.so.conf.d names") {
    root.write("/etc/ld.so.conf.d/intel-neo.conf", "/opt/intel/neo/lib\n");
    root.write("/opt/intel/neo/lib/libigdrcl.so", "");
    CHECK(problems_in(check_intel(root.path(), user())) == 0);
  }
  SECTION("the host bridge of an Intel machine is not a GPU") {
    FakeRoot cpu_only;
    cpu_only.write("/sys/bus/pci/devices/0000:00:00.0/vendor", "0x8086\n");
    cpu_only.write("/sys/bus/pci/devices/0000:00:00.0/class", "0x060000\n");
    CHECK(check_intel(cpu_only.path(), user())[0].status == Status::not_applicable);
  }
}

TEST_CASE("doctor: the .icd files the loader reads", "[doctor]") {
  FakeRoot root;
  const std::string folder = root.path() + "/icd";
  const std::string broken = root.write("/icd/broken.icd", "libxgpu-no-such-driver.so.1\n");
  root.write("/icd/empty.icd", "");
  root.write("/icd/README", "not an icd file\n");

  const IcdPlan plan = plan_icds(root.path(), {folder, "", ""});
  CHECK(plan.where == folder);
  CHECK(plan.why == "OCL_ICD_VENDORS");
  CHECK(plan.icd_files.size() == 2);
  const Findings findings = check_icd_files(plan);
  const Finding* bad = find_subject(findings, broken);
  REQUIRE(bad != nullptr);
  CHECK(bad->status == Status::problem);
  CHECK_THAT(bad->detail, Catch::Contains("libxgpu-no-such-driver.so.1 does not load"));
  CHECK_THAT(bad->detail, Catch::Contains("cannot open shared object file"));
  CHECK(find_subject(findings, folder + "/empty.icd")->status == Status::problem);

  SECTION("a library that is not an ICD, and one that is") {
    root.write("/icd/libm.icd", "libm.so.6\n");
    root.write("/icd/pocl.icd", "libpocl.so.2\n");
    const Findings more = check_icd_files(plan_icds(root.path(), {folder, "", ""}));
    const Finding* not_icd = find_subject(more, folder + "/libm.icd");
    REQUIRE(not_icd != nullptr);
    CHECK(not_icd->status == Status::problem);
    CHECK_THAT(not_icd->detail, Catch::Contains("no clIcdGetPlatformIDsKHR"));
    const Finding* pocl = find_subject(more, folder + "/pocl.icd");
    REQUIRE(pocl != nullptr);
    CHECK(pocl->status == Status::ok);
    CHECK_THAT(pocl->detail, Catch::Contains("platforms: Portable Computing Language (OpenCL"));
  }
  SECTION("the default folder under the root, and a missing one") {
    CHECK(plan_icds(root.path(), {}).where == root.path() + "/etc/OpenCL/vendors");
    const Findings none = check_icd_files(plan_icds(root.path(), {}));
    CHECK(none[0].status == Status::problem);
  }
  SECTION("OCL_ICD_VENDORS naming one .icd file, or a library") {
    CHECK(plan_icds(root.path(), {broken, "", ""}).icd_files == std::vector<std::string>{broken});
    const IcdPlan library = plan_icds(root.path(), {"libfoo.so", "", "libbar.so:libbaz.so"});
    CHECK(library.libraries == std::vector<std::string>{"libfoo.so", "libbar.so", "libbaz.so"});
  }
}

TEST_CASE("doctor: XGPU_* variables", "[doctor]") {
  const Findings findings = check_variables({{"XGPU_CACHE", "maybe"},
                                             {"XGPU_CACHE_MAX_SZE", "1G"},
                                             {"XGPU_TEST_REQUIRE_PLATFORMS", "pocl"},
                                             {"XGPU_LOG_LEVEL", "debug"},
                                             {"XGPU_CACHE_MAX_SIZE", "lots"},
                                             {"XGPU_SORT_SHAPE", "cpu"}});
  CHECK(find_subject(findings, "XGPU_CACHE=maybe")->status == Status::problem);
  CHECK_THAT(find_subject(findings, "XGPU_CACHE_MAX_SZE=1G")->detail,
             Catch::Contains("did you mean XGPU_CACHE_MAX_SIZE?"));
  CHECK(find_subject(findings, "XGPU_TEST_REQUIRE_PLATFORMS=pocl")->status ==
        Status::not_applicable);
  CHECK(find_subject(findings, "XGPU_LOG_LEVEL=debug")->status == Status::ok);
  CHECK(find_subject(findings, "XGPU_CACHE_MAX_SIZE=lots")->status == Status::problem);
  CHECK(find_subject(findings, "XGPU_SORT_SHAPE=cpu")->status == Status::ok);
  CHECK(problems_in(findings) == 3);
}

// Against the settings registry: every name it lists is read by xgpu (none is "not read" nor
// taken for a typo of another, as XGPU_CUBLAS_LIBRARY once was of XGPU_CLBLAST_LIBRARY), and
// a value it would refuse is a problem naming the nearest right word.
TEST_CASE("doctor: every registered setting is known, and bad values named", "[doctor]") {
  using xgpu::common::SettingType;
  std::map<std::string, std::string> environment;
  for (const xgpu::common::SettingSpec& spec : xgpu::common::all_settings()) {
    // The two selectors of devices are checked against this machine's devices: not here.
    if (spec.type == SettingType::selector && std::string(spec.name) != "XGPU_PROFILE_BACKING")
      continue;
    const std::string value = spec.type == SettingType::word
                                  ? xgpu::common::split_field(spec.allowed).front()
                              : spec.type == SettingType::size         ? "2G"
                              : spec.type == SettingType::memory_limit ? "0.8"
                              : spec.type == SettingType::module_list  ? "cuda,opencl"
                                                                       : "something";
    environment[spec.name] = value;
  }
  for (const char* name :
       {"XGPU_TRACE", "XGPU_PROFILE", "XGPU_PROFILE_BACKING", "XGPU_PROFILE_DIR",
        "XGPU_MEMORY_LIMIT", "XGPU_HOST_MEMORY", "XGPU_ALLOCATOR", "XGPU_CUDA_LIBRARY",
        "XGPU_CUBLAS_LIBRARY", "XGPU_NVRTC_LIBRARY", "XGPU_BACKEND_ORDER"}) {
    REQUIRE(environment.count(name) == 1);
  }
  const Findings findings = check_variables(environment);
  REQUIRE(findings.size() == environment.size());
  for (const Finding& finding : findings) {
    INFO(finding.subject << ": " << finding.detail);
    CHECK(finding.status == Status::ok);
  }

  const Findings bad = check_variables({{"XGPU_GEMM", "blas"},
                                        {"XGPU_ALLOCATOR", "pool"},
                                        {"XGPU_MEMORY_LIMIT", "1.5"},
                                        {"XGPU_CUBLAS_LIBARY", "libcublas.so"}});
  CHECK(problems_in(bad) == 4);
  CHECK_THAT(find_subject(bad, "XGPU_GEMM=blas")->detail,
             Catch::Contains("did you mean 'vendor_blas'?"));
  CHECK_THAT(find_subject(bad, "XGPU_GEMM=blas")->fix, Catch::Contains("XGPU_GEMM=vendor_blas"));
  CHECK_THAT(find_subject(bad, "XGPU_ALLOCATOR=pool")->detail,
             Catch::Contains("did you mean 'caching'?") || Catch::Contains("caching, direct"));
  CHECK_THAT(find_subject(bad, "XGPU_MEMORY_LIMIT=1.5")->detail,
             Catch::Contains("XGPU_MEMORY_LIMIT='1.5'"));
  CHECK_THAT(find_subject(bad, "XGPU_CUBLAS_LIBARY=libcublas.so")->detail,
             Catch::Contains("did you mean XGPU_CUBLAS_LIBRARY?"));
}

TEST_CASE("doctor --settings: every setting, its value and where it came from", "[doctor]") {
  const std::vector<SettingLine> lines = settings_lines();
  REQUIRE(lines.size() == xgpu::common::all_settings().size());
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const xgpu::common::SettingSpec& spec = xgpu::common::all_settings()[i];
    CHECK(lines[i].name == spec.name);
    const std::optional<std::string> set = xgpu::common::read_setting(spec.id);
    CHECK(lines[i].source == (set ? "environment" : "default"));
    if (set) CHECK(lines[i].value == *set);
  }
  std::ostringstream text;
  print_settings(text,
                 {{"XGPU_GEMM", "blas", "environment", "XGPU_GEMM='blas' is not one"},
                  {"XGPU_CACHE", "1", "default", ""}},
                 xgpu::cli::Style(false));
  CHECK_THAT(text.str(), Catch::Contains("XGPU_GEMM   blas   environment"));
  CHECK_THAT(text.str(), Catch::Contains("XGPU_CACHE  1      default"));
  CHECK_THAT(text.str(), Catch::Contains("problem: XGPU_GEMM='blas' is not one"));
  const auto json = nlohmann::json::parse(settings_json(lines));
  CHECK(json["schema_version"] == 1);
  CHECK(json["settings"].size() == lines.size());
}

TEST_CASE("doctor: the checklist and its JSON", "[doctor]") {
  const Findings findings = {
      {"Section A", "fine", Status::ok, "all there", ""},
      {"Section A", "absent", Status::not_applicable, "nothing of it", ""},
      {"Section B", "broken", Status::problem, "does not load", "reinstall it"}};
  std::ostringstream text;
  print_checklist(text, findings, symbols(true), false);
  CHECK_THAT(text.str(), Catch::Contains("  [ ok ] fine: all there\n"));
  CHECK_THAT(text.str(), Catch::Contains("  [ -- ] absent: nothing of it\n"));
  CHECK_THAT(text.str(),
             Catch::Contains("  [FAIL] broken: does not load\n      fix: reinstall it"));
  CHECK_THAT(text.str(), Catch::Contains("1 thing to fix"));

  const auto json = nlohmann::json::parse(to_json(findings));
  CHECK(json["schema_version"] == 1);
  CHECK(json["ok"] == false);
  CHECK(json["problems"] == 1);
  REQUIRE(json["checks"].size() == 3);
  CHECK(json["checks"][2]["status"] == "problem");
  CHECK(json["checks"][2]["fix"] == "reinstall it");
  CHECK_FALSE(json["checks"][0].contains("fix"));
  CHECK(verdict({findings[0]}) == "all good: nothing to fix");
}
