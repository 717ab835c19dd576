// What libxgpu-algorithms exports for its own tests (tests/algorithms, tests/profile) and for
// nothing else: kept out of the installed headers, so no program can come to depend on it.
#pragma once

#include <cstddef>
#include <xgpu/algorithms/types.hpp>
#include <xgpu/export.hpp>
#include <xgpu/queue.hpp>

namespace xgpu::detail {

/// How a scan runs (see kernels/scan.cl): automatic follows the layout rule (XGPU_SCAN_SHAPE),
/// as xgpu::inclusive_scan does: the GPU layout's striped three launches, or on the CPU layout
/// a single pass (three launches for a scan in place). The others run the CPU layout's
/// kernels by name whatever the layout.
enum class ScanMethod { automatic, three_launches, single_pass };

/// detail::scan, in the given way.
template <class T>
XGPU_ALGORITHMS_API Event scan_by(Queue& queue, const Buffer<T>& in, const Buffer<T>& out,
                                  scalar_t<T> init, bool inclusive, const char* call,
                                  ScanMethod method);

/// The work-group size the reductions use for T on the queue's device (for tests that need
/// sizes around it).
template <class T>
XGPU_ALGORITHMS_API std::size_t reduce_work_group_size(const Queue& queue);

/// The most work-items per group the sort's main kernels use on this queue's device (the GPU
/// layout's large inputs get that many, small ones fewer; the CPU layout always uses 1), for
/// tests that probe sizes around it.
XGPU_ALGORITHMS_API std::size_t sort_work_group_size(const Queue& queue);

}  // namespace xgpu::detail
