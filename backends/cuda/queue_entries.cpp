// Contexts (each device's primary context) and queues (non-blocking streams), with barriers.
#include "command.hpp"
#include "driver.hpp"
#include "entries.hpp"
#include "errors.hpp"
#include "handles.hpp"
#include "registry.hpp"

namespace xgpu::backend_cuda {

// The primary context, not a context of our own: the CUDA runtime, cuBLAS and PyTorch all
// use it, so buffers exchanged through xgpu/cuda.hpp are valid on both sides.
xgpu_status context_create(xgpu_device device, xgpu_context* context) {
  return guard([&] {
    if (context == nullptr) fail(XGPU_STATUS_INVALID_VALUE, "context_create: context is NULL");
    DeviceRecord& record = registry_find(device);
    auto made = Ref<Context>::adopt(new Context);
    made->device = &record;
    // On failure made->context stays NULL, which the destructor does not release.
    check(cu().cuDevicePrimaryCtxRetain(&made->context, record.device), "cuDevicePrimaryCtxRetain");
    *context = handle_of<xgpu_context>(made.release());
    return XGPU_STATUS_SUCCESS;
  });
}

xgpu_status queue_create(xgpu_context context, xgpu_device device, uint32_t flags,
                         xgpu_queue* queue) {
  return guard([&] {
    if (queue == nullptr) fail(XGPU_STATUS_INVALID_VALUE, "queue_create: queue is NULL");
    Context& owner = context_of(context);
    if (&registry_find(device) != owner.device) {
      fail(XGPU_STATUS_INVALID_VALUE, "queue_create: the device is not the context's");
    }
    ScopedContext scope(owner);
    auto made = Ref<Queue>::adopt(new Queue);
    made->context = Ref<Context>::retain(&owner);
    made->profiling = (flags & XGPU_QUEUE_PROFILING) != 0;
    check(cu().cuStreamCreate(&made->stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
    if (made->profiling) {
      // The anchor of this queue's profiling times: recorded and waited for now, so its host
      // time is known; later events report it plus the driver's elapsed time.
      check(cu().cuEventCreate(&made->epoch, CU_EVENT_DEFAULT), "cuEventCreate");
      check(cu().cuEventRecord(made->epoch, made->stream), "cuEventRecord");
      check(cu().cuEventSynchronize(made->epoch), "cuEventSynchronize");
      made->epoch_host_ns = host_now_ns();
    }
    *queue = handle_of<xgpu_queue>(made.release());
    return XGPU_STATUS_SUCCESS;
  });
}

// Streams submit as commands are enqueued: nothing is held back to flush.
xgpu_status queue_flush(xgpu_queue queue) {
  return guard([&] {
    queue_of(queue);
    return XGPU_STATUS_SUCCESS;
  });
}

xgpu_status queue_finish(xgpu_queue queue) {
  return guard([&] {
    Queue& q = queue_of(queue);
    ScopedContext scope(*q.context);
    check(cu().cuStreamSynchronize(q.stream), "cuStreamSynchronize");
    return XGPU_STATUS_SUCCESS;
  });
}

// A stream is in order, so "everything before" is implied; the wait list becomes
// cuStreamWaitEvent()s (Command) and the event marks the point.
xgpu_status queue_barrier(xgpu_queue queue, const xgpu_wait_v1* wait, xgpu_event* event) {
  return guard([&] {
    Command command(queue_of(queue), wait, event);
    command.enqueued();
    return XGPU_STATUS_SUCCESS;
  });
}

}  // namespace xgpu::backend_cuda
