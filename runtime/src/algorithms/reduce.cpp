// Placeholder: filled by the reduce work of issue 6.
#include "algorithms/support.hpp"
