// The functions behind the xgpu_backend_v1 table, one per member, as declared in backend.h
// (last_error is xgpu::common::last_error). Each runs its body under guard(), so none lets
// an exception out.
#pragma once

#include "xgpu/backend.h"

namespace xgpu::opencl {

// module_entries.cpp
xgpu_status init(const xgpu_host_v1* host);
const char* status_name_entry(xgpu_status status);
xgpu_status retain(uint32_t object_kind, void* object);
xgpu_status release(uint32_t object_kind, void* object);
xgpu_status native_handle(uint32_t object_kind, void* object, void** native);
xgpu_status device_count(uint32_t* count);
xgpu_status device_get(uint32_t index, xgpu_device* device);

// device_info.cpp
xgpu_status device_info(xgpu_device device, uint32_t property, void* value, size_t capacity,
                        size_t* size_ret);

// queue_entries.cpp
xgpu_status context_create(xgpu_device device, xgpu_context* context);
xgpu_status queue_create(xgpu_context context, xgpu_device device, uint32_t flags,
                         xgpu_queue* queue);
xgpu_status queue_flush(xgpu_queue queue);
xgpu_status queue_finish(xgpu_queue queue);
xgpu_status queue_barrier(xgpu_queue queue, const xgpu_wait_v1* wait, xgpu_event* event);

// buffer_entries.cpp
xgpu_status buffer_create(xgpu_context context, uint32_t flags, size_t size, xgpu_buffer* buffer);
xgpu_status buffer_create_sub(xgpu_buffer parent, uint32_t flags, size_t offset, size_t size,
                              xgpu_buffer* buffer);
xgpu_status buffer_write(xgpu_queue queue, xgpu_buffer buffer, uint32_t blocking, size_t offset,
                         size_t size, const void* source, const xgpu_wait_v1* wait,
                         xgpu_event* event);
xgpu_status buffer_read(xgpu_queue queue, xgpu_buffer buffer, uint32_t blocking, size_t offset,
                        size_t size, void* destination, const xgpu_wait_v1* wait,
                        xgpu_event* event);
xgpu_status buffer_copy(xgpu_queue queue, xgpu_buffer source, xgpu_buffer destination,
                        size_t source_offset, size_t destination_offset, size_t size,
                        const xgpu_wait_v1* wait, xgpu_event* event);
xgpu_status buffer_fill(xgpu_queue queue, xgpu_buffer buffer, const void* pattern,
                        size_t pattern_size, size_t offset, size_t size, const xgpu_wait_v1* wait,
                        xgpu_event* event);
xgpu_status buffer_map(xgpu_queue queue, xgpu_buffer buffer, uint32_t map_flags, size_t offset,
                       size_t size, void** host_pointer, const xgpu_wait_v1* wait,
                       xgpu_event* event);
xgpu_status buffer_unmap(xgpu_queue queue, xgpu_buffer buffer, void* host_pointer,
                         const xgpu_wait_v1* wait, xgpu_event* event);

// program_entries.cpp
xgpu_status program_create(xgpu_context context, const char* source, size_t length,
                           xgpu_program* program);
xgpu_status program_build(xgpu_program program, xgpu_device device, const char* options);
xgpu_status program_build_log(xgpu_program program, xgpu_device device, char* buffer,
                              size_t capacity, size_t* size_ret);
xgpu_status program_kernel_names(xgpu_program program, char* buffer, size_t capacity,
                                 size_t* size_ret);

// program_binary.cpp
xgpu_status program_binary(xgpu_program program, xgpu_device device, void* buffer, size_t capacity,
                           size_t* size_ret);
xgpu_status program_create_binary(xgpu_context context, xgpu_device device, const void* binary,
                                  size_t length, xgpu_program* program);

// kernel_entries.cpp
xgpu_status kernel_create(xgpu_program program, const char* name, xgpu_kernel* kernel);
xgpu_status kernel_arg_count(xgpu_kernel kernel, uint32_t* count);
xgpu_status kernel_arg_info(xgpu_kernel kernel, uint32_t index, uint32_t property, void* value,
                            size_t capacity, size_t* size_ret);
xgpu_status kernel_set_arg(xgpu_kernel kernel, uint32_t index, size_t size, const void* value);
xgpu_status kernel_set_arg_buffer(xgpu_kernel kernel, uint32_t index, xgpu_buffer buffer);
xgpu_status kernel_set_arg_local(xgpu_kernel kernel, uint32_t index, size_t size);
xgpu_status kernel_launch(xgpu_queue queue, xgpu_kernel kernel, uint32_t dimensions,
                          const size_t* global_offset, const size_t* global_size,
                          const size_t* local_size, const xgpu_wait_v1* wait, xgpu_event* event);
xgpu_status kernel_limit(xgpu_kernel kernel, xgpu_device device, uint32_t property,
                         uint64_t* value);
xgpu_status kernel_launch_with_args(xgpu_queue queue, xgpu_kernel kernel, uint32_t arg_count,
                                    const xgpu_kernel_arg_v1* args, uint32_t dimensions,
                                    const size_t* global_offset, const size_t* global_size,
                                    const size_t* local_size, uint32_t flags,
                                    const xgpu_wait_v1* wait, xgpu_event* event,
                                    uint32_t* failed_arg);

// blas_gemm.cpp
xgpu_status blas_gemm(xgpu_queue queue, const xgpu_gemm_v1* gemm, const xgpu_wait_v1* wait,
                      xgpu_event* event);

// event_entries.cpp
xgpu_status event_wait(const xgpu_event* events, uint32_t count);
xgpu_status event_status(xgpu_event event, int32_t* status);
xgpu_status event_profile(xgpu_event event, uint32_t point, uint64_t* nanoseconds);

}  // namespace xgpu::opencl
