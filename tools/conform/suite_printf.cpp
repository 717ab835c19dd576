// The printf suite: the driver's printf output for %d %u %x %X %f %e %.2f %s %c %% and
// vectors (%v4hlf, %v2hld: a vector needs its length modifier) from a few work-items,
// captured by pointing the process's standard output (fd 1, where drivers write through C
// stdio) at a temporary file around the launch and queue.finish(), and compared with the
// host's own formatting of the same values as a multiset of lines (the order across
// work-items is unspecified). (CTS: printf.)
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "check.hpp"

namespace xgpu::conform {
namespace {

const char* const kSource = R"(
kernel void print(void) {
  uint i = get_global_id(0);
  printf("d %d u %u x %x X %X\n", -(int)i - 1, i + 4000000000u, 0xbeef0000u + i, 0xabcu + i);
  printf("f %f e %e .2f %.2f\n", 1.5f + i, 12345.678f, -0.125f * i);
  printf("s %s c %c %%\n", "conform", 'A' + i);
  printf("v4hlf %v4hlf v2hld %v2hld\n", (float4)(i, 0.5f, -1.0f, 2.25f), (int2)(i, -(int)i));
}
)";

// While alive, fd 1 writes into a temporary file; the destructor restores fd 1, also when an
// exception unwinds (C stdio and iostreams are flushed before and after, so nothing buffered
// lands on the wrong side).
class StdoutCapture {
 public:
  StdoutCapture() : file_(std::tmpfile()) {
    if (!file_) throw std::runtime_error("printf check: no temporary file for standard output");
    flush();
    saved_ = dup(1);
    if (saved_ < 0 || dup2(fileno(file_), 1) < 0) {
      if (saved_ >= 0) close(saved_);
      std::fclose(file_);
      throw std::runtime_error("printf check: cannot redirect fd 1");
    }
  }
  ~StdoutCapture() {
    restore();
    std::fclose(file_);
  }
  StdoutCapture(const StdoutCapture&) = delete;
  StdoutCapture& operator=(const StdoutCapture&) = delete;

  // Restores fd 1 and returns what was written while it was redirected.
  std::string finish() {
    restore();
    std::string text;
    std::rewind(file_);
    char buffer[4096];
    for (std::size_t got; (got = std::fread(buffer, 1, sizeof buffer, file_)) > 0;)
      text.append(buffer, got);
    return text;
  }

 private:
  static void flush() {
    std::cout.flush();
    std::fflush(stdout);
  }
  void restore() {
    if (saved_ < 0) return;
    flush();
    dup2(saved_, 1);
    close(saved_);
    saved_ = -1;
  }
  std::FILE* file_;
  int saved_ = -1;
};

std::string format(const char* pattern, double value) {
  char text[128];
  std::snprintf(text, sizeof text, pattern, value);
  return text;
}

// The lines item i prints, formatted by the host's C library.
std::vector<std::string> expected_lines(unsigned i) {
  char line[512];
  std::vector<std::string> lines;
  std::snprintf(line, sizeof line, "d %d u %u x %x X %X", -static_cast<int>(i) - 1, i + 4000000000u,
                0xbeef0000u + i, 0xabcu + i);
  lines.push_back(line);
  std::snprintf(line, sizeof line, "f %f e %e .2f %.2f", 1.5 + i, double{12345.678f}, -0.125 * i);
  lines.push_back(line);
  std::snprintf(line, sizeof line, "s %s c %c %%", "conform", static_cast<char>('A' + i));
  lines.push_back(line);
  lines.push_back("v4hlf " + format("%f", i) + "," + format("%f", 0.5) + "," + format("%f", -1.0) +
                  "," + format("%f", 2.25) + " v2hld " + std::to_string(i) + "," +
                  std::to_string(-static_cast<int>(i)));
  return lines;
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  for (std::size_t end; (end = text.find('\n', start)) != std::string::npos; start = end + 1)
    lines.push_back(text.substr(start, end - start));
  if (start < text.size()) lines.push_back(text.substr(start));
  return lines;
}

Result printf_formats(Env& env) {
  const unsigned items = 4;
  const Kernel kernel = env.program("conform_printf.cl", kSource).kernel("print");
  std::string output;
  {
    StdoutCapture capture;
    env.queue().launch(kernel, Range{items});
    env.queue().finish();
    output = capture.finish();
  }
  std::vector<std::string> expected, got = split_lines(output);
  for (unsigned i = 0; i < items; ++i) {
    for (const std::string& line : expected_lines(i)) expected.push_back(line);
  }
  std::sort(expected.begin(), expected.end());
  std::sort(got.begin(), got.end());
  std::vector<std::string> missing, unexpected;
  std::set_difference(expected.begin(), expected.end(), got.begin(), got.end(),
                      std::back_inserter(missing));
  std::set_difference(got.begin(), got.end(), expected.begin(), expected.end(),
                      std::back_inserter(unexpected));
  if (missing.empty() && unexpected.empty()) return pass();
  return fail("printf output from " + std::to_string(items) +
              " work-items: " + (missing.empty() ? "" : "missing line '" + missing.front() + "'") +
              (missing.empty() || unexpected.empty() ? "" : "; ") +
              (unexpected.empty() ? "" : "unexpected line '" + unexpected.front() + "'") + " (" +
              std::to_string(missing.size()) + " missing, " + std::to_string(unexpected.size()) +
              " unexpected of " + std::to_string(expected.size()) + ")");
}

}  // namespace

void register_printf(Registry& registry) {
  registry.add("printf", "formats_and_vectors", "", printf_formats);
}

}  // namespace xgpu::conform
