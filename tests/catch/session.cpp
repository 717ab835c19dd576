// Catch2's implementation, compiled once for every test program (tests/CMakeLists.txt).
#define CATCH_CONFIG_RUNNER
#include "session.hpp"

#include <catch2/catch.hpp>

namespace xgpu_test {

int run_catch_session(int argc, char** argv, const std::string& run_name) {
  Catch::Session session;
  if (const int status = session.applyCommandLine(argc, argv)) return status;
  if (!run_name.empty()) session.configData().name = run_name;
  return session.run();
}

}  // namespace xgpu_test
