// Placeholder: filled by the elementwise work of issue 6.
#include "algorithms/support.hpp"
