// Placeholder: the library suite's sort checks (issue 6).
#include "check.hpp"

namespace xgpu::conform {

void register_library_sort(Registry&) {}

}  // namespace xgpu::conform
