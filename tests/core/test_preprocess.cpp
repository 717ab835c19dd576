// Include expansion and the remapping of a driver's build log back to the files the program
// was written in (runtime/src/preprocess.cpp). White-box: no device needed.
#include <catch2/catch.hpp>
#include <string>

#include "preprocess.hpp"

namespace {

// "a.cl" includes "h.h" on its first line. Expanded lines: 1 #line, 2 #line, 3-4 the header,
// 5 #line, 6 a.cl's second line.
xgpu::detail::ExpandedSource expanded() {
  return xgpu::detail::expand_includes(
      {"a.cl", "#include \"h.h\"\nkernel void k(global int* x) { x[0] = H; }\n"},
      {{"h.h", "// the header\n#define H 1\n"}});
}

}  // namespace

TEST_CASE("include expansion keeps each line's origin", "[preprocess]") {
  const auto source = expanded();
  REQUIRE(source.origins.size() == 6);
  CHECK(source.origins[3] == std::make_pair(std::string("h.h"), 2));
  CHECK(source.origins[5] == std::make_pair(std::string("a.cl"), 2));
}

TEST_CASE("build logs name the file and line the program was written in", "[preprocess]") {
  const auto source = expanded();
  using xgpu::detail::remap_log;
  CHECK(remap_log("input.cl:4:9: error: x", source) == "h.h:2:9: error: x");
  CHECK(remap_log("<source>:6:1: warning", source) == "a.cl:2:1: warning");
  CHECK(remap_log("/tmp/x/input.cl:6: a\n'input.cl:3:'", source) == "a.cl:2: a\n'h.h:1:'");
  // Ours already, past the end, or no number: left as the driver wrote them.
  CHECK(remap_log("a.cl:2: x", source) == "a.cl:2: x");
  CHECK(remap_log("input.cl:7: x input.cl:0: y input.cl:x:", source) ==
        "input.cl:7: x input.cl:0: y input.cl:x:");
}

// Found writing the fuzz target (tests/fuzz/fuzz_preprocess.cpp): std::regex recursed once per
// character of a long line (drivers quote the source line of an error) until the stack overflowed,
// and a line number past 64 bits threw std::out_of_range out of the build.
TEST_CASE("build logs with a long line or a huge line number are remapped", "[preprocess]") {
  const auto source = expanded();
  const std::string long_line(1 << 20, 'x');
  CHECK(xgpu::detail::remap_log(long_line + " input.cl:6:", source) == long_line + " a.cl:2:");
  // A 1 MiB file name is still a file name.
  CHECK(xgpu::detail::remap_log("input.cl:6: " + long_line + ".cl:4:", source) == "a.cl:2: h.h:2:");
  const std::string huge = "input.cl:99999999999999999999999: error";
  CHECK(xgpu::detail::remap_log(huge, source) == huge);
}
