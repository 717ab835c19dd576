// Placeholder: the gemm tests of issue 6.
#include "test_support.hpp"
