// Allocation limits: max_allocation for one buffer, global_memory for the sum of the live
// ones. The core's caching allocator makes large parent blocks with buffer_create and hands
// out sub-buffers of them, so the parents are what is counted: that is the memory the device
// really gives, as on a real driver.
#include "enforce.hpp"
#include "xgpu/common/errors.hpp"

namespace xgpu::profile {

void reserve_allocation(ProfileDevice& device, std::uint64_t bytes) {
  const DeviceCaps& profile = device.caps;
  const DeviceCaps& backing = device.backing_caps;
  if (profile.max_allocation != 0 && bytes > profile.max_allocation)
    common::fail(kClInvalidBufferSize,
                 device.label + " allows at most " + std::to_string(profile.max_allocation) +
                     " bytes in one buffer; the allocation asked for " + std::to_string(bytes));
  if (backing.max_allocation != 0 && bytes > backing.max_allocation)
    common::fail(kClInvalidBufferSize,
                 "the backing device " + backing.name + " allows at most " +
                     std::to_string(backing.max_allocation) + " bytes in one buffer (its limit, " +
                     "not the profile's " + std::to_string(profile.max_allocation) +
                     "); the allocation asked for " + std::to_string(bytes));
  std::lock_guard<std::mutex> lock(device.memory_mutex);
  if (profile.global_memory != 0 && device.live_bytes + bytes > profile.global_memory)
    common::fail(kClMemObjectAllocationFailure,
                 device.label + " has " + std::to_string(profile.global_memory) +
                     " bytes of global memory, " + std::to_string(device.live_bytes) +
                     " of them in live buffers; the allocation asked for " + std::to_string(bytes));
  device.live_bytes += bytes;
}

void release_allocation(ProfileDevice& device, std::uint64_t bytes) {
  std::lock_guard<std::mutex> lock(device.memory_mutex);
  device.live_bytes -= std::min(device.live_bytes, bytes);
}

}  // namespace xgpu::profile
