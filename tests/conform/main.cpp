// The Catch2 entry point of xgpu-conform-tests.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
