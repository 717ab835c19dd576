// Buffers: device memory from cuMemAlloc, sub-buffers as a pointer offset into the parent,
// copies and fills on the queue's stream, and maps through pinned host staging memory.
#include <algorithm>
#include <cstring>
#include <vector>

#include "command.hpp"
#include "driver.hpp"
#include "entries.hpp"
#include "errors.hpp"
#include "handles.hpp"

namespace xgpu::backend_cuda {
namespace {

constexpr uint32_t kAccessFlags = XGPU_MEM_READ_ONLY | XGPU_MEM_WRITE_ONLY;

void require_range(const Buffer& buffer, size_t offset, size_t size, const char* what) {
  if (offset > buffer.size || size > buffer.size - offset) {
    fail(XGPU_STATUS_INVALID_VALUE, std::string(what) + ": bytes [" + std::to_string(offset) +
                                        ", " + std::to_string(offset + size) + ") outside a " +
                                        std::to_string(buffer.size) + "-byte buffer");
  }
}

void require_same_context(const Queue& queue, const Buffer& buffer, const char* what) {
  if (queue.context.get() != buffer.context.get()) {
    fail(XGPU_STATUS_INVALID_VALUE, std::string(what) + ": the buffer belongs to another context");
  }
}

// Patterns wider than 4 bytes: the first copy from the host, then the filled part doubled
// with device copies, log2(count) commands in all.
void fill_by_doubling(CUstream stream, CUdeviceptr start, const void* pattern, size_t pattern_size,
                      size_t size) {
  // Pageable memory: the driver has copied the source before cuMemcpyHtoDAsync returns.
  check(cu().cuMemcpyHtoDAsync(start, pattern, pattern_size, stream), "cuMemcpyHtoDAsync");
  for (size_t filled = pattern_size; filled < size;) {
    size_t chunk = std::min(filled, size - filled);
    check(cu().cuMemcpyDtoDAsync(start + filled, start, chunk, stream), "cuMemcpyDtoDAsync");
    filled += chunk;
  }
}

// The checks every command on one buffer makes: the queue's context, and the bytes
// [offset, offset + size) inside the buffer.
Buffer& checked_buffer(const Queue& queue, xgpu_buffer buffer, size_t offset, size_t size,
                       const char* what) {
  Buffer& b = buffer_of(buffer);
  require_same_context(queue, b, what);
  require_range(b, offset, size, what);
  return b;
}

// The buffers of a copy (`call`), each range inside its buffer, the destination in the
// queue's context and, unless `peer`, the source too.
struct Ends {
  Buffer& from;
  Buffer& to;
};
Ends checked_ends(const Queue& queue, xgpu_buffer source, xgpu_buffer destination,
                  size_t source_offset, size_t destination_offset, size_t size, const char* call,
                  bool peer) {
  Buffer& from = buffer_of(source);
  Buffer& to = buffer_of(destination);
  if (!peer) require_same_context(queue, from, call);
  require_same_context(queue, to, call);
  require_range(from, source_offset, size, (std::string(call) + " source").c_str());
  require_range(to, destination_offset, size, (std::string(call) + " destination").c_str());
  return {from, to};
}

// buffer_write and buffer_read (`call`): `copy` enqueues the one copy between the host
// pointer (`host_name`, which must not be NULL) and the buffer's bytes at offset on the
// queue's stream, waited for when blocking.
template <class Copy>
xgpu_status host_copy(const char* call, xgpu_queue queue, xgpu_buffer buffer, uint32_t blocking,
                      size_t offset, size_t size, const void* host, const char* host_name,
                      const xgpu_wait_v1* wait, xgpu_event* event, Copy copy) {
  return guard([&] {
    Queue& q = queue_of(queue);
    Buffer& b = checked_buffer(q, buffer, offset, size, call);
    if (host == nullptr)
      fail(XGPU_STATUS_INVALID_VALUE, std::string(call) + ": " + host_name + " is NULL");
    Command command(q, wait, event);
    copy(b.pointer + offset, q.stream);
    command.enqueued();
    if (blocking) check(cu().cuStreamSynchronize(q.stream), "cuStreamSynchronize");
    return XGPU_STATUS_SUCCESS;
  });
}

}  // namespace

xgpu_status buffer_create(xgpu_context context, uint32_t flags, size_t size, xgpu_buffer* buffer) {
  return guard([&] {
    if (buffer == nullptr) fail(XGPU_STATUS_INVALID_VALUE, "buffer_create: buffer is NULL");
    if (size == 0) fail(XGPU_STATUS_INVALID_VALUE, "buffer_create: size 0");
    Context& owner = context_of(context);
    ScopedContext scope(owner);
    auto made = Ref<Buffer>::adopt(new Buffer);
    made->context = Ref<Context>::retain(&owner);
    made->size = size;
    made->flags = flags;
    // XGPU_MEM_HOST_VISIBLE is a hint: device memory mapped through pinned staging serves it.
    check(cu().cuMemAlloc(&made->pointer, size), "cuMemAlloc");
    *buffer = handle_of<xgpu_buffer>(made.release());
    return XGPU_STATUS_SUCCESS;
  });
}

xgpu_status buffer_create_sub(xgpu_buffer parent, uint32_t flags, size_t offset, size_t size,
                              xgpu_buffer* buffer) {
  return guard([&] {
    if (buffer == nullptr) fail(XGPU_STATUS_INVALID_VALUE, "buffer_create_sub: buffer is NULL");
    Buffer& whole = buffer_of(parent);
    if (size == 0) fail(XGPU_STATUS_INVALID_VALUE, "buffer_create_sub: size 0");
    require_range(whole, offset, size, "buffer_create_sub");
    if ((flags & ~kAccessFlags) != 0) {
      fail(XGPU_STATUS_INVALID_VALUE, "buffer_create_sub: only access flags are allowed");
    }
    auto made = Ref<Buffer>::adopt(new Buffer);
    made->context = whole.context;
    // The sub-buffer keeps the memory's owner alive: a sub-buffer of a sub-buffer holds the
    // root, so chains stay one level deep.
    Buffer* root = whole.parent.get() ? whole.parent.get() : &whole;
    made->parent = Ref<Buffer>::retain(root);
    made->pointer = whole.pointer + offset;
    made->size = size;
    made->flags = flags;
    *buffer = handle_of<xgpu_buffer>(made.release());
    return XGPU_STATUS_SUCCESS;
  });
}

// Blocking or not, the source may be reused once this returns when it is pageable memory (the
// driver stages it); blocking waits for the copy itself.
xgpu_status buffer_write(xgpu_queue queue, xgpu_buffer buffer, uint32_t blocking, size_t offset,
                         size_t size, const void* source, const xgpu_wait_v1* wait,
                         xgpu_event* event) {
  return host_copy("buffer_write", queue, buffer, blocking, offset, size, source, "source", wait,
                   event, [&](CUdeviceptr device, CUstream stream) {
                     check(cu().cuMemcpyHtoDAsync(device, source, size, stream),
                           "cuMemcpyHtoDAsync");
                   });
}

xgpu_status buffer_read(xgpu_queue queue, xgpu_buffer buffer, uint32_t blocking, size_t offset,
                        size_t size, void* destination, const xgpu_wait_v1* wait,
                        xgpu_event* event) {
  return host_copy("buffer_read", queue, buffer, blocking, offset, size, destination, "destination",
                   wait, event, [&](CUdeviceptr device, CUstream stream) {
                     check(cu().cuMemcpyDtoHAsync(destination, device, size, stream),
                           "cuMemcpyDtoHAsync");
                   });
}

xgpu_status buffer_copy(xgpu_queue queue, xgpu_buffer source, xgpu_buffer destination,
                        size_t source_offset, size_t destination_offset, size_t size,
                        const xgpu_wait_v1* wait, xgpu_event* event) {
  return guard([&] {
    Queue& q = queue_of(queue);
    const Ends ends = checked_ends(q, source, destination, source_offset, destination_offset, size,
                                   "buffer_copy", false);
    Buffer &from = ends.from, &to = ends.to;
    // OpenCL's rule, kept so both modules refuse the same calls.
    if (from.pointer + source_offset < to.pointer + destination_offset + size &&
        to.pointer + destination_offset < from.pointer + source_offset + size) {
      fail(XGPU_STATUS_INVALID_VALUE, "buffer_copy: source and destination overlap");
    }
    Command command(q, wait, event);
    check(cu().cuMemcpyDtoDAsync(to.pointer + destination_offset, from.pointer + source_offset,
                                 size, q.stream),
          "cuMemcpyDtoDAsync");
    command.enqueued();
    return XGPU_STATUS_SUCCESS;
  });
}

// cuMemcpyPeerAsync between the primary contexts of two devices (or of one), on the
// destination queue's stream, after the wait list's events of either context.
xgpu_status buffer_copy_peer(xgpu_queue queue, xgpu_buffer source, xgpu_buffer destination,
                             size_t source_offset, size_t destination_offset, size_t size,
                             const xgpu_wait_v1* wait, xgpu_event* event) {
  return guard([&] {
    Queue& q = queue_of(queue);
    const Ends ends = checked_ends(q, source, destination, source_offset, destination_offset, size,
                                   "buffer_copy_peer", true);
    Buffer &from = ends.from, &to = ends.to;
    Command command(q, wait, event, true);
    // Without peer access enabled the driver stages through host memory itself; with it
    // (NVLink, a shared PCIe switch) the copy goes device to device.
    check(
        cu().cuMemcpyPeerAsync(to.pointer + destination_offset, q.context->context,
                               from.pointer + source_offset, from.context->context, size, q.stream),
        "cuMemcpyPeerAsync");
    command.enqueued();
    return XGPU_STATUS_SUCCESS;
  });
}

xgpu_status buffer_fill(xgpu_queue queue, xgpu_buffer buffer, const void* pattern,
                        size_t pattern_size, size_t offset, size_t size, const xgpu_wait_v1* wait,
                        xgpu_event* event) {
  return guard([&] {
    Queue& q = queue_of(queue);
    Buffer& b = checked_buffer(q, buffer, offset, size, "buffer_fill");
    if (pattern == nullptr || pattern_size == 0) {
      fail(XGPU_STATUS_INVALID_VALUE, "buffer_fill: no pattern");
    }
    if (offset % pattern_size != 0 || size % pattern_size != 0) {
      fail(XGPU_STATUS_INVALID_VALUE, "buffer_fill: offset and size must be multiples of the " +
                                          std::to_string(pattern_size) + "-byte pattern");
    }
    Command command(q, wait, event);
    const CUdeviceptr start = b.pointer + offset;
    const size_t count = size / pattern_size;
    if (count != 0) {
      if (pattern_size == 1) {
        unsigned char value;
        std::memcpy(&value, pattern, 1);
        check(cu().cuMemsetD8Async(start, value, count, q.stream), "cuMemsetD8Async");
      } else if (pattern_size == 2 && start % 2 == 0) {
        unsigned short value;
        std::memcpy(&value, pattern, 2);
        check(cu().cuMemsetD16Async(start, value, count, q.stream), "cuMemsetD16Async");
      } else if (pattern_size == 4 && start % 4 == 0) {
        unsigned int value;
        std::memcpy(&value, pattern, 4);
        check(cu().cuMemsetD32Async(start, value, count, q.stream), "cuMemsetD32Async");
      } else {
        fill_by_doubling(q.stream, start, pattern, pattern_size, size);
      }
    }
    command.enqueued();
    return XGPU_STATUS_SUCCESS;
  });
}

// A map is pinned host memory (cuMemHostAlloc) holding a copy of the range; unmap copies it
// back when the map was for writing. Both wait for their copy before returning, so the
// pointer is ready when map returns and the memory may be freed when unmap does.
xgpu_status buffer_map(xgpu_queue queue, xgpu_buffer buffer, uint32_t map_flags, size_t offset,
                       size_t size, void** host_pointer, const xgpu_wait_v1* wait,
                       xgpu_event* event) {
  return guard([&] {
    Queue& q = queue_of(queue);
    Buffer& b = checked_buffer(q, buffer, offset, size, "buffer_map");
    if (host_pointer == nullptr) fail(XGPU_STATUS_INVALID_VALUE, "buffer_map: NULL output");
    Command command(q, wait, event);
    void* staging = nullptr;
    check(cu().cuMemHostAlloc(&staging, size == 0 ? 1 : size, CU_MEMHOSTALLOC_PORTABLE),
          "cuMemHostAlloc");
    CUresult status = CUDA_SUCCESS;
    if ((map_flags & XGPU_MAP_WRITE_INVALIDATE) == 0 && size != 0) {
      status = cu().cuMemcpyDtoHAsync(staging, b.pointer + offset, size, q.stream);
      if (status == CUDA_SUCCESS) status = cu().cuStreamSynchronize(q.stream);
    }
    if (status != CUDA_SUCCESS) {
      cu().cuMemFreeHost(staging);
      check(status, "cuMemcpyDtoHAsync");
    }
    {
      std::lock_guard<std::mutex> lock(b.map_mutex);
      b.maps[staging] = Mapping{offset, size, map_flags};
    }
    command.enqueued();
    *host_pointer = staging;
    return XGPU_STATUS_SUCCESS;
  });
}

xgpu_status buffer_unmap(xgpu_queue queue, xgpu_buffer buffer, void* host_pointer,
                         const xgpu_wait_v1* wait, xgpu_event* event) {
  return guard([&] {
    Queue& q = queue_of(queue);
    Buffer& b = buffer_of(buffer);
    require_same_context(q, b, "buffer_unmap");
    // Before the mapping is forgotten: a refused wait list must leave it (and its pinned
    // staging memory, which holds the host's writes) in place.
    Command command(q, wait, event);
    Mapping mapping;
    {
      std::lock_guard<std::mutex> lock(b.map_mutex);
      auto found = b.maps.find(host_pointer);
      if (found == b.maps.end()) {
        fail(XGPU_STATUS_INVALID_VALUE, "buffer_unmap: the pointer is not a map of this buffer");
      }
      mapping = found->second;
      b.maps.erase(found);
    }
    CUresult status = CUDA_SUCCESS;
    const bool writes = (mapping.flags & (XGPU_MAP_WRITE | XGPU_MAP_WRITE_INVALIDATE)) != 0;
    if (writes && mapping.size != 0) {
      status =
          cu().cuMemcpyHtoDAsync(b.pointer + mapping.offset, host_pointer, mapping.size, q.stream);
    }
    command.enqueued();
    // Pinned memory is read by the copy asynchronously: free it only once the copy is done.
    if (status == CUDA_SUCCESS) status = cu().cuStreamSynchronize(q.stream);
    cu().cuMemFreeHost(host_pointer);
    check(status, "cuMemcpyHtoDAsync");
    return XGPU_STATUS_SUCCESS;
  });
}

}  // namespace xgpu::backend_cuda
