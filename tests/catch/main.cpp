// The main of the Catch2 test programs (library xgpu-catch-main); the MPI tests have their own
// (tests/mpi/mpi_main.cpp).
#include "session.hpp"

int main(int argc, char** argv) { return xgpu_test::run_catch_session(argc, argv); }
