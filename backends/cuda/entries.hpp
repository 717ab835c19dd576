// The functions behind the xgpu_backend_v1 table, declared once for every module in
// xgpu/common/backend_entries.inc; this module defines them in its *_entries.cpp files.
#pragma once

#include "xgpu/backend.h"
#include "xgpu/common/errors.hpp"  // last_error, taken by backend_entries.inc

namespace xgpu::backend_cuda {
#include "xgpu/common/backend_entries.inc"
}  // namespace xgpu::backend_cuda
