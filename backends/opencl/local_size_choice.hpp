// The work-group size the module chooses for a launch given none, on a driver with workaround
// choose_local_size (xgpu/common/drivers/known_drivers.def): a few shapes per kernel, whatever the
// global sizes.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cl.hpp"

namespace xgpu::backend_opencl {

/// In each dimension, the largest power of two that divides global[d], within `max_items` for
/// the whole group (the kernel's maximum): dimension 0 first, so a 1-D launch gets the most.
void powers_of_two_dividing(uint32_t dimensions, const size_t* global, size_t max_items,
                            size_t* local);

/// The work-group size of a launch: the caller's `local_size`; when the caller gives none, on a
/// driver with workaround choose_local_size, the choice above in `chosen`, unless the kernel has a
/// required size (then NULL: the driver uses it) or the driver cannot say its limits.
const size_t* launch_local_size(cl_kernel kernel, uint32_t dimensions, const size_t* global_size,
                                const size_t* local_size, size_t* chosen);

/// A kernel handle was made or released: what launch_local_size() keeps of the last kernel it
/// saw may now be another's (a new kernel can reuse a freed address).
void kernel_handles_changed() noexcept;

}  // namespace xgpu::backend_opencl
