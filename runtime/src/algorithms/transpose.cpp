// Placeholder: filled by the transpose work of issue 6.
#include "algorithms/support.hpp"
