// The workgroups suite's comparisons, apart from its kernels so that the tests can feed them
// observations of a broken driver (no device this project tests with has non-uniform
// work-groups or sub-groups, so a wrong kernel cannot show these checks failing there).
#pragma once

#include <cstdint>
#include <vector>

#include "check.hpp"

namespace xgpu::conform {

// Values each work-item of a 2D launch records per dimension, in this order.
enum WorkItemValue {
  kGlobalId,
  kLocalId,
  kGroupId,
  kLocalSize,
  kEnqueuedLocalSize,
  kNumGroups,
  kWorkItemValues
};

// observed[(y * global_x + x) * 2 * kWorkItemValues + d * kWorkItemValues + value]: what
// item (x, y) saw in dimension d of a launch over `global` with work-groups of `local`, where
// the last group of a dimension holds the remainder (get_local_size) while
// get_enqueued_local_size stays `local`.
Result compare_non_uniform(const Range& global, const Range& local,
                           const std::vector<std::uint32_t>& observed);

// Values each work-item of a 1D launch records about its sub-group, in this order.
enum SubGroupValue {
  kSubGroupSize,
  kMaxSubGroupSize,
  kNumSubGroups,
  kSubGroupId,
  kSubGroupLocalId,
  kReduceAdd,      // sub_group_reduce_add(x)
  kBroadcastZero,  // sub_group_broadcast(x, 0)
  kAnyAll,         // sub_group_any(x > 100) | sub_group_all(x >= 0) << 1
  kSubGroupValues
};

// observed[i * kSubGroupValues + value] for work-item i with input x[i], work-groups of
// `local` items: sizes and ids consistent, and the collectives equal to a host reduction
// over the members of each sub-group.
Result compare_sub_groups(std::size_t local, const std::vector<std::int32_t>& x,
                          const std::vector<std::int32_t>& observed);

}  // namespace xgpu::conform
