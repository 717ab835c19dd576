// The functions behind the profile module's table, one per member of xgpu_backend_v1.
#pragma once

#include "xgpu/backend.h"

namespace xgpu::profile {

// entry.cpp
xgpu_status init(const xgpu_host_v1* host);
const char* status_name(xgpu_status status);
xgpu_status device_count(uint32_t* count);
xgpu_status device_get(uint32_t index, xgpu_device* device);

// forward_entries.cpp
xgpu_status retain(uint32_t kind, void* object);
xgpu_status release(uint32_t kind, void* object);
xgpu_status native_handle(uint32_t kind, void* object, void** native);
xgpu_status context_create(xgpu_device device, xgpu_context* context);
xgpu_status queue_create(xgpu_context context, xgpu_device device, uint32_t flags,
                         xgpu_queue* queue);
xgpu_status buffer_create(xgpu_context context, uint32_t flags, size_t size, xgpu_buffer* buffer);
xgpu_status buffer_create_sub(xgpu_buffer parent, uint32_t flags, size_t offset, size_t size,
                              xgpu_buffer* buffer);
xgpu_status program_create(xgpu_context context, const char* source, size_t length,
                           xgpu_program* program);
xgpu_status program_build(xgpu_program program, xgpu_device device, const char* options);
xgpu_status program_build_log(xgpu_program program, xgpu_device device, char* buffer,
                              size_t capacity, size_t* size_ret);
xgpu_status kernel_create(xgpu_program program, const char* name, xgpu_kernel* kernel);
xgpu_status kernel_set_arg(xgpu_kernel kernel, uint32_t index, size_t size, const void* value);
xgpu_status kernel_set_arg_buffer(xgpu_kernel kernel, uint32_t index, xgpu_buffer buffer);
xgpu_status kernel_set_arg_local(xgpu_kernel kernel, uint32_t index, size_t size);
xgpu_status kernel_limit(xgpu_kernel kernel, xgpu_device device, uint32_t property,
                         uint64_t* value);
xgpu_status kernel_launch(xgpu_queue queue, xgpu_kernel kernel, uint32_t dimensions,
                          const size_t* global_offset, const size_t* global_size,
                          const size_t* local_size, const xgpu_wait_v1* wait, xgpu_event* event);
xgpu_status kernel_launch_with_args(xgpu_queue queue, xgpu_kernel kernel, uint32_t arg_count,
                                    const xgpu_kernel_arg_v1* args, uint32_t dimensions,
                                    const size_t* global_offset, const size_t* global_size,
                                    const size_t* local_size, uint32_t flags,
                                    const xgpu_wait_v1* wait, xgpu_event* event,
                                    uint32_t* failed_arg);

}  // namespace xgpu::profile
