// Catch2's runner for every test program. Catch's implementation is compiled once, in
// session.cpp (library xgpu-catch): it is the slowest file of the build to compile, and every
// test program used to compile its own copy.
#pragma once

#include <string>

namespace xgpu_test {

// Reads Catch's command line and runs the selected test cases, as Catch's own main does: the
// number of failed test cases, or non-zero for a command line Catch refuses. A non-empty
// `run_name` replaces the run's name in the report (the MPI tests name each rank's run).
int run_catch_session(int argc, char** argv, const std::string& run_name = {});

}  // namespace xgpu_test
