// libFuzzer target for the preprocessing behind the kernel cache's key: include expansion
// (with the embedded kernels/ headers), the build-log remapping that follows it, the option
// normalization and the key text. The input is the program, then optionally NUL-separated
// headers, each "name\ntext"; the input also serves as a build log to remap.
#include <algorithm>
#include <string>
#include <vector>

#include "cache/key.hpp"
#include "fuzz_support.hpp"
#include "preprocess.hpp"
#include "registry.hpp"
#include "xgpu/error.hpp"

namespace {

std::vector<std::string> split_nul(std::string_view text) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = text.find('\0', start);
    parts.emplace_back(text.substr(start, end == std::string_view::npos ? end : end - start));
    if (end == std::string_view::npos) return parts;
    start = end + 1;
  }
}

void check_expanded(const xgpu::detail::ExpandedSource& expanded, const std::string& log) {
  const auto lines =
      static_cast<std::size_t>(std::count(expanded.text.begin(), expanded.text.end(), '\n'));
  if (lines != expanded.origins.size())
    xgpu_fuzz::fail("expanded text of " + std::to_string(lines) + " lines has " +
                    std::to_string(expanded.origins.size()) + " origins");
  for (const auto& [file, line] : expanded.origins)
    if (file.empty() || line < 1) xgpu_fuzz::fail("an origin without a file or a line");
  xgpu::detail::remap_log(log, expanded);
  xgpu::detail::remap_log("input.cl:" + std::to_string(lines) + ":1: error\n<source>:1:", expanded);
}

void check_options(const std::string& options) {
  const std::string normal = xgpu::detail::normalize_options(options);
  if (xgpu::detail::normalize_options(normal) != normal)
    xgpu_fuzz::fail("normalize_options is not idempotent");
  xgpu::detail::DeviceRecord device;
  device.info.backend = "opencl";
  const std::string key = xgpu::detail::make_cache_key(device, options, "source");
  if (key.find("options: " + normal + "\n") == std::string::npos)
    xgpu_fuzz::fail("the cache key lacks the normalized options");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input = xgpu_fuzz::as_text(data, size);
  const std::vector<std::string> parts = split_nul(input);
  std::vector<xgpu::Source> headers;
  for (std::size_t i = 1; i < parts.size(); ++i) {
    const std::size_t newline = parts[i].find('\n');
    headers.push_back({parts[i].substr(0, newline),
                       newline == std::string::npos ? "" : parts[i].substr(newline + 1)});
  }
  try {
    check_expanded(xgpu::detail::expand_includes({"input.cl", parts[0]}, headers),
                   std::string(input));
  } catch (const xgpu::Error& error) {
    // A missing header or a runaway chain: refused naming the including file and line.
    const std::string& why = error.message();
    if (error.code() != xgpu::Errc::unknown_source ||
        (why.find(": #include \"") == std::string::npos &&
         why.find("nested deeper") == std::string::npos))
      xgpu_fuzz::fail(std::string("expand_includes refused without naming the place: ") +
                      error.what());
  }
  check_options(parts[0].substr(0, 256));
  return 0;
}
