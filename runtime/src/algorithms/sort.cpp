// Placeholder: filled by the sort work of issue 6.
#include "algorithms/support.hpp"
