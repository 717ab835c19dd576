// Placeholder: filled by the softmax work of issue 6.
#include "algorithms/support.hpp"
