// The work-group size chosen for a launch given none; see local_size_choice.hpp.
#include "local_size_choice.hpp"

#include <atomic>
#include <cstdlib>
#include <cstring>

#include "quirk_platforms.hpp"

namespace xgpu::backend_opencl {
namespace {

// Bumped whenever a kernel handle is made or released.
std::atomic<uint64_t> g_kernel_generation{1};

// What the choice needs of a kernel, kept per thread for the last kernel it launched: asking
// the driver both at each launch cost a launch several percent (docs/BENCHMARKS.md).
struct KernelFacts {
  cl_kernel kernel = nullptr;
  uint64_t generation = 0;
  bool required = false;  ///< reqd_work_group_size: the driver's size stands
  size_t max_items = 0;   ///< CL_KERNEL_WORK_GROUP_SIZE; 0 when the driver could not say
};
thread_local KernelFacts t_last;

// Whether PoCL compiles a work-group function per size: not when its own
// POCL_WORK_GROUP_SPECIALIZATION=0 asks for one generic function per kernel, which then takes
// any size, and PoCL's pick (the largest divisor) runs larger groups than the choice here.
// Read once, as PoCL reads it.
bool driver_compiles_per_size() {
  static const bool compiles = [] {
    const char* value = std::getenv("POCL_WORK_GROUP_SPECIALIZATION");
    return value == nullptr || std::strcmp(value, "0") != 0;
  }();
  return compiles;
}

const KernelFacts& facts_of(cl_kernel kernel) {
  const uint64_t generation = g_kernel_generation.load(std::memory_order_acquire);
  if (t_last.kernel == kernel && t_last.generation == generation) return t_last;
  // The kernel's program is built for its context's one device: no device needs naming.
  size_t required[3] = {0, 0, 0};
  size_t max_items = 0;
  const bool known = clGetKernelWorkGroupInfo(kernel, nullptr, CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
                                              sizeof required, required, nullptr) == CL_SUCCESS &&
                     clGetKernelWorkGroupInfo(kernel, nullptr, CL_KERNEL_WORK_GROUP_SIZE,
                                              sizeof max_items, &max_items, nullptr) == CL_SUCCESS;
  t_last = {kernel, generation, required[0] != 0, known ? max_items : 0};
  return t_last;
}

}  // namespace

void powers_of_two_dividing(uint32_t dimensions, const size_t* global, size_t max_items,
                            size_t* local) {
  // The largest power of two within max_items (at least 1).
  size_t budget = max_items == 0 ? 1 : size_t{1} << (63 - __builtin_clzll(max_items));
  for (uint32_t d = 0; d < dimensions; ++d) {
    // global & -global: its lowest set bit, the largest power of two dividing it.
    const size_t dividing = global[d] == 0 ? 1 : global[d] & (~global[d] + 1);
    local[d] = dividing < budget ? dividing : budget;
    budget /= local[d];
  }
}

const size_t* launch_local_size(cl_kernel kernel, uint32_t dimensions, const size_t* global_size,
                                const size_t* local_size, size_t* chosen) {
  if (local_size != nullptr || global_size == nullptr || dimensions < 1 || dimensions > 3 ||
      !quirk_on(Workaround::choose_local_size, kernel) || !driver_compiles_per_size())
    return local_size;
  const KernelFacts& facts = facts_of(kernel);
  if (facts.required || facts.max_items == 0) return nullptr;
  powers_of_two_dividing(dimensions, global_size, facts.max_items, chosen);
  return chosen;
}

void kernel_handles_changed() noexcept {
  g_kernel_generation.fetch_add(1, std::memory_order_acq_rel);
}

}  // namespace xgpu::backend_opencl
