// Placeholder: the sort tests of issue 6.
#include "test_support.hpp"
