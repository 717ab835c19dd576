// Which device of a program an entry is about: the one the caller names, or, when the caller
// passes NULL, the program's first (the core builds each program for one device).
#pragma once

#include <vector>

#include "cl.hpp"
#include "xgpu/backend.h"

namespace xgpu::backend_opencl {

std::vector<cl_device_id> program_devices(cl_program program);

cl_device_id program_device(cl_program program, xgpu_device device);

}  // namespace xgpu::backend_opencl
