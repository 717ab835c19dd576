// Placeholder: filled by the scan work of issue 6.
#include "algorithms/support.hpp"
