// xgpu::check_setting: every variable of the settings registry (docs/settings.md) is known by
// name, a near miss of a name or a word is answered with the nearest right one, and sizes and
// memory limits are judged by the parsers the library reads them with. No device needed.
#include <xgpu/settings.hpp>

#include "test_support.hpp"

namespace {

std::string problem_of(const char* name, const char* value) {
  const std::optional<xgpu::SettingProblem> problem = xgpu::check_setting(name, value);
  return problem ? problem->message : std::string();
}

}  // namespace

TEST_CASE("check_setting knows every variable xgpu reads", "[settings]") {
  // The ones `xgpu doctor` once took for "not read by xgpu", and XGPU_CUBLAS_LIBRARY, which it
  // took for a typo of XGPU_CLBLAST_LIBRARY.
  for (const char* name : {"XGPU_TRACE", "XGPU_PROFILE", "XGPU_PROFILE_BACKING", "XGPU_PROFILE_DIR",
                           "XGPU_CUDA_LIBRARY", "XGPU_CUBLAS_LIBRARY", "XGPU_NVRTC_LIBRARY",
                           "XGPU_CLBLAST_LIBRARY", "XGPU_HOST_BLAS", "XGPU_BACKEND_PATH",
                           "XGPU_CACHE_DIR", "XGPU_DEVICE", "XGPU_VISIBLE_DEVICES"}) {
    INFO(name);
    CHECK_FALSE(xgpu::check_setting(name, "anything"));
  }
  CHECK_FALSE(xgpu::check_setting("XGPU_MEMORY_LIMIT", "4G"));
  CHECK_FALSE(xgpu::check_setting("XGPU_MEMORY_LIMIT", "0.8"));
  CHECK_FALSE(xgpu::check_setting("XGPU_HOST_MEMORY", "pageable"));
  CHECK_FALSE(xgpu::check_setting("XGPU_ALLOCATOR", "direct"));
  CHECK_FALSE(xgpu::check_setting("XGPU_GEMM", "vendor_blas"));
  CHECK_FALSE(xgpu::check_setting("XGPU_CACHE_MAX_SIZE", "1.5G"));
  CHECK_FALSE(xgpu::check_setting("XGPU_LOG_LEVEL", "warning"));
  // A list of module names is checked against the modules xgpu knows.
  CHECK_FALSE(xgpu::check_setting("XGPU_BACKEND_ORDER", "cuda,opencl"));
  CHECK(problem_of("XGPU_BACKEND_ORDER", "cuda,openc").find("unknown backend 'openc'") !=
        std::string::npos);
}

TEST_CASE("check_setting names a misspelt variable and the nearest one", "[settings]") {
  auto unknown = xgpu::check_setting("XGPU_CACHE_MAX_SZE", "1G");
  REQUIRE(unknown);
  CHECK(unknown->unknown_name);
  CHECK(unknown->suggestion == "XGPU_CACHE_MAX_SIZE");
  CHECK_THAT(unknown->message, Catch::Contains("did you mean 'XGPU_CACHE_MAX_SIZE'?"));
  auto cublas = xgpu::check_setting("XGPU_CUBLAS_LIBARY", "libcublas.so");
  REQUIRE(cublas);
  CHECK(cublas->suggestion == "XGPU_CUBLAS_LIBRARY");
  // Not near any: not ours, and no suggestion.
  auto other = xgpu::check_setting("XGPU_SOMETHING_ELSE_ENTIRELY", "1");
  REQUIRE(other);
  CHECK(other->unknown_name);
  CHECK(other->suggestion.empty());
  CHECK_THAT(other->message,
             Catch::Contains("xgpu reads no variable XGPU_SOMETHING_ELSE_ENTIRELY"));
}

TEST_CASE("check_setting refuses the values the library refuses", "[settings]") {
  // A word: the nearest allowed one, also for a short form of it.
  auto blas = xgpu::check_setting("XGPU_GEMM", "blas");
  REQUIRE(blas);
  CHECK_FALSE(blas->unknown_name);
  CHECK(blas->suggestion == "vendor_blas");
  CHECK_THAT(blas->message,
             Catch::Contains("XGPU_GEMM='blas'") && Catch::Contains("did you mean 'vendor_blas'?"));
  CHECK(xgpu::check_setting("XGPU_SORT_SHAPE", "gpus")->suggestion == "gpu");
  CHECK(xgpu::check_setting("XGPU_CACHE", "maybe")->suggestion.empty());
  CHECK_THAT(problem_of("XGPU_ALLOCATOR", "pooled"),
             Catch::Contains("XGPU_ALLOCATOR='pooled'") && Catch::Contains("caching, direct"));
  CHECK_THAT(problem_of("XGPU_CACHE_MAX_SIZE", "lots"), Catch::Contains("is not a size"));
  // Every malformed memory limit, through the parser contexts use (the entries unit.icd.
  // settings.* check that a context refuses one).
  for (const char* bad : {"lots", "-1G", "0", "0.0", "1.5", "4Q"}) {
    INFO("XGPU_MEMORY_LIMIT=" << bad);
    CHECK_THAT(problem_of("XGPU_MEMORY_LIMIT", bad),
               Catch::Contains("XGPU_MEMORY_LIMIT='" + std::string(bad) + "'"));
  }
}
