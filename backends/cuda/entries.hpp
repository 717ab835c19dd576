// The functions behind the xgpu_backend_v1 table, declared once for every module in
// xgpu/common/backend_entries.inc; this module defines them in its *_entries.cpp files.
#pragma once

#include "xgpu/backend.h"

namespace xgpu::backend_cuda {
#include "xgpu/common/backend_entries.inc"

/// buffer_copy_peer: cuMemcpyPeerAsync between the primary contexts of two devices (or of one),
/// on the destination queue's stream, after the wait list's events of either context.
xgpu_status buffer_copy_peer(xgpu_queue queue, xgpu_buffer source, xgpu_buffer destination,
                             size_t source_offset, size_t destination_offset, size_t size,
                             const xgpu_wait_v1* wait, xgpu_event* event);
}  // namespace xgpu::backend_cuda
