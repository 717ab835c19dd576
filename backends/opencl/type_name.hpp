// One spelling for a kernel argument's type, whatever the driver's: the core compares it
// with the C++ type of the value the user passes.
#pragma once

#include <string>

namespace xgpu::backend_opencl {

/// Drops qualifiers and address spaces (const, volatile, restrict, __global, ...), writes
/// unsigned types the OpenCL C way ("unsigned int" -> "uint") and pointers with no space
/// ("__global float *" -> "float*"). Other words are kept, one space apart ("struct Pair").
std::string normalize_type_name(const std::string& driver_name);

}  // namespace xgpu::backend_opencl
