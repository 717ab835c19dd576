// The one run-time library loader (backends/common) and the one mapping of a module status
// to an xgpu::Errc (runtime/src/module.hpp): what each says when it fails. White-box, no
// device needed; libc stands in for a library that opens.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <cstring>
#include <string>

#include "module.hpp"
#include "xgpu/common/dynamic_library.hpp"

using xgpu::common::DynamicLibrary;
using xgpu::common::LibrarySpec;

namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("the library loader says which candidates failed and why", "[loader]") {
  const LibrarySpec missing{"test library", std::nullopt, {"libxgpu-no-such-library.so.9"}};
  const DynamicLibrary none = DynamicLibrary::open(missing);
  CHECK_FALSE(none.loaded());
  CHECK(contains(none.why_not(), "test library could not be opened"));
  CHECK(contains(none.why_not(), "libxgpu-no-such-library.so.9"));
  CHECK(none.symbol("strlen") == nullptr);

  // A candidate that opens but lacks a required symbol is skipped, and the next one serves.
  const LibrarySpec libc{"C library", std::nullopt, {"libc.so.6"}};
  const DynamicLibrary lacking = DynamicLibrary::open(libc, {"strlen", "xgpu_no_such_symbol"});
  CHECK_FALSE(lacking.loaded());
  CHECK(contains(lacking.why_not(), "libc.so.6 lacks xgpu_no_such_symbol"));
  CHECK_FALSE(contains(lacking.why_not(), "strlen"));

  const LibrarySpec second{
      "C library", std::nullopt, {"libxgpu-no-such-library.so.9", "libc.so.6"}};
  DynamicLibrary served = DynamicLibrary::open(second, {"strlen"});
  REQUIRE(served.loaded());
  CHECK(served.path() == "libc.so.6");
  CHECK(served.why_not().empty());
  CHECK_FALSE(served.overridden());
  using Strlen = std::size_t (*)(const char*);
  const Strlen length = served.function<Strlen>("strlen");
  REQUIRE(length != nullptr);
  CHECK(length("four") == 4);
  served.close();
  CHECK_FALSE(served.loaded());
  CHECK(served.symbol("strlen") == nullptr);
}

// The override's value is given here, as open() reads it from the setting (read once per
// process: the CTest entries that set XGPU_CUDA_LIBRARY use the reading end to end).
TEST_CASE("the loader's override setting replaces the candidates", "[loader]") {
  const LibrarySpec spec{"C library", xgpu::common::Setting::host_blas, {"libc.so.6"}};
  const DynamicLibrary none = DynamicLibrary::open(spec, {}, "/nonexistent/libnothing.so");
  CHECK_FALSE(none.loaded());
  CHECK(none.overridden());
  CHECK(contains(none.why_not(), "/nonexistent/libnothing.so"));
  CHECK(contains(none.why_not(), "as XGPU_HOST_BLAS asks"));
  // Empty counts as unset: the candidates serve again.
  const DynamicLibrary served = DynamicLibrary::open(spec, {}, "");
  CHECK(served.loaded());
  CHECK_FALSE(served.overridden());
  // A library setting's spec takes its files from the registry (settings.def).
  const LibrarySpec blas =
      xgpu::common::library_spec("host BLAS", xgpu::common::Setting::host_blas);
  CHECK(blas.candidates == std::vector<std::string>{"libopenblas.so.0", "libblas.so.3"});
}

TEST_CASE("every module status maps to one Errc", "[loader]") {
  using xgpu::Errc;
  using xgpu::detail::errc_of_status;
  CHECK(errc_of_status(XGPU_STATUS_UNSUPPORTED) == Errc::unsupported);
  CHECK(errc_of_status(XGPU_STATUS_NOT_AVAILABLE) == Errc::unsupported);
  CHECK(errc_of_status(XGPU_STATUS_INVALID_VALUE) == Errc::invalid_argument);
  CHECK(errc_of_status(XGPU_STATUS_MODULE_EXCEPTION) == Errc::backend);
  CHECK(errc_of_status(-5) == Errc::backend);  // a native status (CL_OUT_OF_RESOURCES)
}
