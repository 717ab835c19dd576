// Buffers and the commands that move their bytes: write, read, copy, fill, map, unmap.
#include <string>

#include "cl.hpp"
#include "entries.hpp"
#include "errors.hpp"
#include "event_queue_refs.hpp"
#include "serialized_call.hpp"
#include "wait_list.hpp"

namespace xgpu::backend_opencl {
namespace {

cl_mem_flags mem_flags_of(uint32_t flags) {
  constexpr uint32_t kKnown = XGPU_MEM_READ_ONLY | XGPU_MEM_WRITE_ONLY | XGPU_MEM_HOST_VISIBLE;
  constexpr uint32_t kAccess = XGPU_MEM_READ_ONLY | XGPU_MEM_WRITE_ONLY;
  if ((flags & ~kKnown) != 0 || (flags & kAccess) == kAccess) {
    fail(XGPU_STATUS_INVALID_VALUE, "buffer_create: invalid flags " + std::to_string(flags));
  }
  cl_mem_flags cl_flags = CL_MEM_READ_WRITE;
  if (flags & XGPU_MEM_READ_ONLY) cl_flags = CL_MEM_READ_ONLY;
  if (flags & XGPU_MEM_WRITE_ONLY) cl_flags = CL_MEM_WRITE_ONLY;
  if (flags & XGPU_MEM_HOST_VISIBLE) cl_flags |= CL_MEM_ALLOC_HOST_PTR;
  return cl_flags;
}

cl_map_flags map_flags_of(uint32_t flags) {
  constexpr uint32_t kKnown = XGPU_MAP_READ | XGPU_MAP_WRITE | XGPU_MAP_WRITE_INVALIDATE;
  if ((flags & ~kKnown) != 0) {
    fail(XGPU_STATUS_INVALID_VALUE, "buffer_map: invalid flags " + std::to_string(flags));
  }
  cl_map_flags cl_flags = 0;
  if (flags & XGPU_MAP_READ) cl_flags |= CL_MAP_READ;
  if (flags & XGPU_MAP_WRITE) cl_flags |= CL_MAP_WRITE;
  if (flags & XGPU_MAP_WRITE_INVALIDATE) cl_flags |= CL_MAP_WRITE_INVALIDATE_REGION;
  return cl_flags;
}

cl_command_queue cl_queue(xgpu_queue queue) { return reinterpret_cast<cl_command_queue>(queue); }
cl_mem cl_buffer(xgpu_buffer buffer) { return reinterpret_cast<cl_mem>(buffer); }

}  // namespace

xgpu_status buffer_create(xgpu_context context, uint32_t flags, size_t size, xgpu_buffer* buffer) {
  return guard_on(context, [&] {
    if (buffer == nullptr) fail(XGPU_STATUS_INVALID_VALUE, "buffer_create: buffer is NULL");
    cl_int status = CL_SUCCESS;
    cl_mem created = clCreateBuffer(reinterpret_cast<cl_context>(context), mem_flags_of(flags),
                                    size, nullptr, &status);
    check(status, "clCreateBuffer");
    *buffer = reinterpret_cast<xgpu_buffer>(created);
    return XGPU_STATUS_SUCCESS;
  });
}

xgpu_status buffer_create_sub(xgpu_buffer parent, uint32_t flags, size_t offset, size_t size,
                              xgpu_buffer* buffer) {
  return guard_on(parent, [&] {
    if (buffer == nullptr) fail(XGPU_STATUS_INVALID_VALUE, "buffer_create_sub: buffer is NULL");
    if (flags & XGPU_MEM_HOST_VISIBLE) {
      fail(XGPU_STATUS_INVALID_VALUE, "buffer_create_sub: HOST_VISIBLE is the parent's to ask");
    }
    cl_buffer_region region{offset, size};
    cl_int status = CL_SUCCESS;
    cl_mem created = clCreateSubBuffer(cl_buffer(parent), mem_flags_of(flags),
                                       CL_BUFFER_CREATE_TYPE_REGION, &region, &status);
    check(status, "clCreateSubBuffer");
    *buffer = reinterpret_cast<xgpu_buffer>(created);
    return XGPU_STATUS_SUCCESS;
  });
}

xgpu_status buffer_write(xgpu_queue queue, xgpu_buffer buffer, uint32_t blocking, size_t offset,
                         size_t size, const void* source, const xgpu_wait_v1* wait,
                         xgpu_event* event) {
  return guard_on(queue, [&] {
    WaitList list(wait, event);
    check(clEnqueueWriteBuffer(cl_queue(queue), cl_buffer(buffer), blocking ? CL_TRUE : CL_FALSE,
                               offset, size, source, list.count, list.events, list.event_out),
          "clEnqueueWriteBuffer");
    hold_queue_for_event(cl_queue(queue), list.event_out);
    return XGPU_STATUS_SUCCESS;
  });
}

xgpu_status buffer_read(xgpu_queue queue, xgpu_buffer buffer, uint32_t blocking, size_t offset,
                        size_t size, void* destination, const xgpu_wait_v1* wait,
                        xgpu_event* event) {
  return guard_on(queue, [&] {
    WaitList list(wait, event);
    check(clEnqueueReadBuffer(cl_queue(queue), cl_buffer(buffer), blocking ? CL_TRUE : CL_FALSE,
                              offset, size, destination, list.count, list.events, list.event_out),
          "clEnqueueReadBuffer");
    hold_queue_for_event(cl_queue(queue), list.event_out);
    return XGPU_STATUS_SUCCESS;
  });
}

xgpu_status buffer_copy(xgpu_queue queue, xgpu_buffer source, xgpu_buffer destination,
                        size_t source_offset, size_t destination_offset, size_t size,
                        const xgpu_wait_v1* wait, xgpu_event* event) {
  return guard_on(queue, [&] {
    WaitList list(wait, event);
    check(clEnqueueCopyBuffer(cl_queue(queue), cl_buffer(source), cl_buffer(destination),
                              source_offset, destination_offset, size, list.count, list.events,
                              list.event_out),
          "clEnqueueCopyBuffer");
    hold_queue_for_event(cl_queue(queue), list.event_out);
    return XGPU_STATUS_SUCCESS;
  });
}

xgpu_status buffer_fill(xgpu_queue queue, xgpu_buffer buffer, const void* pattern,
                        size_t pattern_size, size_t offset, size_t size, const xgpu_wait_v1* wait,
                        xgpu_event* event) {
  return guard_on(queue, [&] {
    WaitList list(wait, event);
    check(clEnqueueFillBuffer(cl_queue(queue), cl_buffer(buffer), pattern, pattern_size, offset,
                              size, list.count, list.events, list.event_out),
          "clEnqueueFillBuffer");
    hold_queue_for_event(cl_queue(queue), list.event_out);
    return XGPU_STATUS_SUCCESS;
  });
}

// Always a blocking map: the ABI has no blocking flag, and a pointer handed back before the
// map completes could not be used safely by a caller that asked for no event.
xgpu_status buffer_map(xgpu_queue queue, xgpu_buffer buffer, uint32_t map_flags, size_t offset,
                       size_t size, void** host_pointer, const xgpu_wait_v1* wait,
                       xgpu_event* event) {
  return guard_on(queue, [&] {
    if (host_pointer == nullptr)
      fail(XGPU_STATUS_INVALID_VALUE, "buffer_map: host_pointer is NULL");
    WaitList list(wait, event);
    cl_int status = CL_SUCCESS;
    void* mapped =
        clEnqueueMapBuffer(cl_queue(queue), cl_buffer(buffer), CL_TRUE, map_flags_of(map_flags),
                           offset, size, list.count, list.events, list.event_out, &status);
    check(status, "clEnqueueMapBuffer");
    hold_queue_for_event(cl_queue(queue), list.event_out);
    *host_pointer = mapped;
    return XGPU_STATUS_SUCCESS;
  });
}

xgpu_status buffer_unmap(xgpu_queue queue, xgpu_buffer buffer, void* host_pointer,
                         const xgpu_wait_v1* wait, xgpu_event* event) {
  return guard_on(queue, [&] {
    WaitList list(wait, event);
    check(clEnqueueUnmapMemObject(cl_queue(queue), cl_buffer(buffer), host_pointer, list.count,
                                  list.events, list.event_out),
          "clEnqueueUnmapMemObject");
    hold_queue_for_event(cl_queue(queue), list.event_out);
    return XGPU_STATUS_SUCCESS;
  });
}

}  // namespace xgpu::backend_opencl
