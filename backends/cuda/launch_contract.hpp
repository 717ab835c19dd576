// The translation's launch contract (backends/cuda/translate/opencl_to_cuda.hpp) as the
// launch needs it, so that only program_entries.cpp speaks to the translation: the alignment
// of __local arguments in dynamic shared memory and the hidden launch-information parameter.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace xgpu::backend_cuda {

/// Each __local argument's byte offset in dynamic shared memory is a multiple of this.
size_t local_argument_alignment();

/// The bytes of the hidden last kernel parameter: global offset and size per dimension and
/// the number of dimensions.
std::vector<unsigned char> launch_information(uint32_t dimensions, const size_t* global_offset,
                                              const size_t* global_size);

}  // namespace xgpu::backend_cuda
