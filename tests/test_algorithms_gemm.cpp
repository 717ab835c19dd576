// Placeholder: the gemm tests of issue 6.
#include <xgpu/algorithms.hpp>

#include "test_support.hpp"
