// Each module file loaded on its own, as the registry would load it (the core's
// detail::load_module, white-box: in xgpu-core-tests), against the stub modules of
// tests/modules/stub_backend (their folder comes in XGPU_TEST_STUB_DIR) and the cuda module
// without a driver: each bad module is refused with a reason that names what is wrong, a good
// one loads, and nothing crashes.
#include <algorithm>
#include <memory>
#include <mutex>

#include "module.hpp"
#include "test_support.hpp"
#include "xgpu/backend.h"

using Catch::Matchers::Contains;

namespace {

// Loads one module file, checks it, initialises it and counts its devices, without registering
// it. A module that loaded stays loaded (and reachable) until exit: unloading code that may
// still have callbacks registered with a driver's threads is not safe.
xgpu::BackendReport inspect_backend_module(const std::string& path) {
  static std::mutex mutex;
  static auto* inspected = new std::vector<std::unique_ptr<xgpu::detail::Module>>();
  xgpu::detail::LoadOutcome outcome = xgpu::detail::load_module(path);
  if (outcome.module) {
    std::lock_guard<std::mutex> lock(mutex);
    inspected->push_back(std::move(outcome.module));
  }
  return outcome.report;
}

xgpu::BackendReport inspect(const std::string& dir, const std::string& file) {
  xgpu::BackendReport report = inspect_backend_module(dir + "/" + file);
  INFO(file << ": loaded=" << report.loaded << " message=" << report.message);
  CHECK(report.path == dir + "/" + file);
  return report;
}

std::string lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

}  // namespace

TEST_CASE("stub modules: the good ones load", "[module_files]") {
  const auto dir = xgpu_test::stub_dir();
  if (!dir) return;
  const xgpu::BackendReport ok = inspect(*dir, "libxgpu-backend-stub-ok.so");
  CHECK(ok.loaded);
  CHECK(ok.name == "stub");
  CHECK(ok.device_count == 0);

  const xgpu::BackendReport null_optional = inspect(*dir, "libxgpu-backend-stub-null_optional.so");
  CHECK(null_optional.loaded);
  CHECK(null_optional.device_count == 0);
}

TEST_CASE("stub modules: each bad one is refused with its reason", "[module_files]") {
  const auto dir = xgpu_test::stub_dir();
  if (!dir) return;
  const std::string host_version = std::to_string(XGPU_BACKEND_ABI_VERSION);

  const xgpu::BackendReport wrong_version = inspect(*dir, "libxgpu-backend-stub-wrong_version.so");
  CHECK_FALSE(wrong_version.loaded);
  CHECK_THAT(lower(wrong_version.message), Contains("version"));
  CHECK_THAT(wrong_version.message, Contains("99"));
  CHECK_THAT(wrong_version.message, Contains(host_version));

  const xgpu::BackendReport short_table = inspect(*dir, "libxgpu-backend-stub-short_table.so");
  CHECK_FALSE(short_table.loaded);
  // Names the table's size and the size required.
  CHECK_THAT(short_table.message,
             Contains(std::to_string(XGPU_BACKEND_V1_REQUIRED_SIZE - sizeof(void*))));
  CHECK_THAT(short_table.message, Contains(std::to_string(XGPU_BACKEND_V1_REQUIRED_SIZE)));

  const xgpu::BackendReport throws = inspect(*dir, "libxgpu-backend-stub-throws.so");
  CHECK(throws.device_count == 0);
  CHECK_THAT(throws.message, Contains("stub: deliberate failure"));

  const xgpu::BackendReport no_entry = inspect(*dir, "libxgpu-backend-stub-no_entry.so");
  CHECK_FALSE(no_entry.loaded);
  CHECK_THAT(no_entry.message, Contains(XGPU_BACKEND_ENTRY_SYMBOL));

  const xgpu::BackendReport garbage = inspect(*dir, "libxgpu-backend-garbage.so");
  CHECK_FALSE(garbage.loaded);
  CHECK_THAT(lower(garbage.message),
             Contains("not a") || Contains("invalid ELF") || Contains("file too short"));

  const xgpu::BackendReport missing = inspect(*dir, "libxgpu-backend-not-there.so");
  CHECK_FALSE(missing.loaded);
  CHECK_THAT(missing.message, Contains("libxgpu-backend-not-there.so"));
  CHECK_THAT(lower(missing.message),
             Contains("no such file") || Contains("not found") || Contains("cannot open"));
}

// The cuda module on a machine without NVIDIA's driver (the entry points XGPU_CUDA_LIBRARY at
// a file that does not exist): it loads, offers no device, and is marked driver_absent so
// that `xgpu query` stays quiet about it; a module failing otherwise is not.
TEST_CASE("the cuda module without a driver: loaded, no device, driver absent", "[module_files]") {
  const auto library = xgpu_test::env("XGPU_CUDA_LIBRARY");
  REQUIRE(library.has_value());
  const xgpu::BackendReport cuda = inspect_backend_module(XGPU_TEST_CUDA_MODULE);
  INFO("message: " << cuda.message);
  CHECK(cuda.name == "cuda");
  CHECK(cuda.loaded);
  CHECK(cuda.device_count == 0);
  CHECK(cuda.driver_absent);
  CHECK_THAT(cuda.message, Contains("XGPU_STATUS_NOT_AVAILABLE: no NVIDIA driver (" + *library +
                                    ": cannot open shared object file"));
  const auto dir = xgpu_test::stub_dir();
  if (!dir) return;
  CHECK_FALSE(inspect(*dir, "libxgpu-backend-stub-throws.so").driver_absent);
}
