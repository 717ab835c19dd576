// Placeholder: filled by the gemm work of issue 6.
#include "algorithms/support.hpp"
