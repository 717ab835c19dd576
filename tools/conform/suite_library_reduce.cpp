// Placeholder: the library suite's reduce checks (issue 6).
#include "check.hpp"

namespace xgpu::conform {

void register_library_reduce(Registry&) {}

}  // namespace xgpu::conform
