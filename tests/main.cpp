// The Catch2 runner of xgpu-tests. Kept alone in its own file because Catch's main is slow
// to compile; the test files around it then rebuild quickly.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
