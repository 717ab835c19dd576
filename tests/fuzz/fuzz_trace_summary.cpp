// libFuzzer target for `xgpu trace summary FILE`: any file is summed up or refused with an
// xgpu::Error that names it; never a crash, nor a stray exception of the JSON library.
#include <sstream>
#include <string>

#include "fuzz_support.hpp"
#include "trace_command.hpp"
#include "xgpu/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = xgpu_fuzz::as_file(xgpu_fuzz::as_text(data, size));
  std::ostringstream out;
  try {
    xgpu::cli::print_trace_summary(path, 5, out);
  } catch (const xgpu::Error& error) {
    if (error.code() != xgpu::Errc::invalid_argument ||
        error.message().find(path) == std::string::npos)
      xgpu_fuzz::fail(std::string("a refusal that does not name the file: ") + error.what());
  }
  return 0;
}
