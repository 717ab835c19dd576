// Placeholder: filled by the host_blas work of issue 6.
#include "algorithms/support.hpp"
