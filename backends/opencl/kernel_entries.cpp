// Kernels: creation, argument introspection and setting, launch.
#include <string>

#include "cl.hpp"
#include "entries.hpp"
#include "errors.hpp"
#include "event_queue_refs.hpp"
#include "local_size_choice.hpp"
#include "serialized_call.hpp"
#include "type_name.hpp"
#include "wait_list.hpp"
#include "xgpu/common/module_entries.hpp"
#include "xgpu/common/out_param.hpp"

namespace xgpu::backend_opencl {

using common::Bytes;
using common::bytes_of_string;
using common::bytes_of_u64;
using common::copy_out;
namespace {

cl_kernel cl_kern(xgpu_kernel kernel) { return reinterpret_cast<cl_kernel>(kernel); }

// The argument index belongs in the text: "CL_INVALID_ARG_SIZE" alone does not say which.
void check_arg(cl_int status, const char* function, uint32_t index) {
  if (status == CL_SUCCESS) return;
  std::string call = std::string(function) + " (argument " + std::to_string(index) + ")";
  fail_call(status, call.c_str());
}

void check_arg_info(cl_int status, uint32_t index) {
  if (status == CL_KERNEL_ARG_INFO_NOT_AVAILABLE) {
    fail(XGPU_STATUS_NOT_AVAILABLE,
         "clGetKernelArgInfo failed: CL_KERNEL_ARG_INFO_NOT_AVAILABLE (build the program with "
         "-cl-kernel-arg-info)");
  }
  check_arg(status, "clGetKernelArgInfo", index);
}

std::string arg_string(cl_kernel kernel, uint32_t index, cl_kernel_arg_info param) {
  size_t size = 0;
  check_arg_info(clGetKernelArgInfo(kernel, index, param, 0, nullptr, &size), index);
  std::string text(size, '\0');
  if (size != 0) {
    check_arg_info(clGetKernelArgInfo(kernel, index, param, size, text.data(), nullptr), index);
  }
  return text.substr(0, text.find('\0'));
}

uint64_t address_space(cl_kernel kernel, uint32_t index) {
  cl_kernel_arg_address_qualifier qualifier = CL_KERNEL_ARG_ADDRESS_PRIVATE;
  check_arg_info(clGetKernelArgInfo(kernel, index, CL_KERNEL_ARG_ADDRESS_QUALIFIER,
                                    sizeof(qualifier), &qualifier, nullptr),
                 index);
  switch (qualifier) {
    case CL_KERNEL_ARG_ADDRESS_GLOBAL:
      return XGPU_ADDRESS_GLOBAL;
    case CL_KERNEL_ARG_ADDRESS_CONSTANT:
      return XGPU_ADDRESS_CONSTANT;
    case CL_KERNEL_ARG_ADDRESS_LOCAL:
      return XGPU_ADDRESS_LOCAL;
    default:
      return XGPU_ADDRESS_PRIVATE;
  }
}

}  // namespace

xgpu_status kernel_create(xgpu_program program, const char* name, xgpu_kernel* kernel) {
  return guard_on(program, [&] {
    if (kernel == nullptr || name == nullptr) {
      fail(XGPU_STATUS_INVALID_VALUE, "kernel_create: NULL name or kernel");
    }
    cl_int status = CL_SUCCESS;
    cl_kernel created = clCreateKernel(reinterpret_cast<cl_program>(program), name, &status);
    if (status != CL_SUCCESS)
      fail_call(status, ("clCreateKernel(\"" + std::string(name) + "\")").c_str());
    *kernel = reinterpret_cast<xgpu_kernel>(created);
    kernel_handles_changed();  // it may reuse a released kernel's address
    return XGPU_STATUS_SUCCESS;
  });
}

xgpu_status kernel_arg_count(xgpu_kernel kernel, uint32_t* count) {
  return guard_on(kernel, [&] {
    if (count == nullptr) fail(XGPU_STATUS_INVALID_VALUE, "kernel_arg_count: count is NULL");
    cl_uint args = 0;
    check(clGetKernelInfo(cl_kern(kernel), CL_KERNEL_NUM_ARGS, sizeof(args), &args, nullptr),
          "clGetKernelInfo");
    *count = args;
    return XGPU_STATUS_SUCCESS;
  });
}

xgpu_status kernel_arg_info(xgpu_kernel kernel, uint32_t index, uint32_t property, void* value,
                            size_t capacity, size_t* size_ret) {
  return guard_on(kernel, [&] {
    Bytes bytes;
    if (property == XGPU_ARG_NAME) {
      bytes = bytes_of_string(arg_string(cl_kern(kernel), index, CL_KERNEL_ARG_NAME));
    } else if (property == XGPU_ARG_TYPE_NAME) {
      std::string type = arg_string(cl_kern(kernel), index, CL_KERNEL_ARG_TYPE_NAME);
      bytes = bytes_of_string(normalize_type_name(type));
    } else if (property == XGPU_ARG_ADDRESS_SPACE) {
      bytes = bytes_of_u64(address_space(cl_kern(kernel), index));
    } else {
      fail(XGPU_STATUS_INVALID_VALUE, "unknown argument property " + std::to_string(property));
    }
    copy_out(bytes, value, capacity, size_ret);
    return XGPU_STATUS_SUCCESS;
  });
}

xgpu_status kernel_set_arg(xgpu_kernel kernel, uint32_t index, size_t size, const void* value) {
  return guard_on(kernel, [&] {
    check_arg(clSetKernelArg(cl_kern(kernel), index, size, value), "clSetKernelArg", index);
    return XGPU_STATUS_SUCCESS;
  });
}

// A NULL buffer becomes a NULL cl_mem, which OpenCL passes to the kernel as a NULL pointer.
xgpu_status kernel_set_arg_buffer(xgpu_kernel kernel, uint32_t index, xgpu_buffer buffer) {
  return guard_on(kernel, [&] {
    auto mem = reinterpret_cast<cl_mem>(buffer);
    check_arg(clSetKernelArg(cl_kern(kernel), index, sizeof(mem), &mem), "clSetKernelArg", index);
    return XGPU_STATUS_SUCCESS;
  });
}

// A __local argument is set by its size alone.
xgpu_status kernel_set_arg_local(xgpu_kernel kernel, uint32_t index, size_t size) {
  return guard_on(kernel, [&] {
    check_arg(clSetKernelArg(cl_kern(kernel), index, size, nullptr), "clSetKernelArg", index);
    return XGPU_STATUS_SUCCESS;
  });
}

xgpu_status kernel_launch(xgpu_queue queue, xgpu_kernel kernel, uint32_t dimensions,
                          const size_t* global_offset, const size_t* global_size,
                          const size_t* local_size, const xgpu_wait_v1* wait, xgpu_event* event) {
  return guard_compiling(queue, [&] {
    WaitList list(wait, event);
    size_t chosen[3];
    check(clEnqueueNDRangeKernel(
              reinterpret_cast<cl_command_queue>(queue), cl_kern(kernel), dimensions, global_offset,
              global_size,
              launch_local_size(cl_kern(kernel), dimensions, global_size, local_size, chosen),
              list.count, list.events, list.event_out),
          "clEnqueueNDRangeKernel");
    hold_queue_for_event(reinterpret_cast<cl_command_queue>(queue), list.event_out);
    return XGPU_STATUS_SUCCESS;
  });
}

// One guard and one lock for the whole launch: the per-argument entries above each cross the
// ABI under their own guard, which cost more than clSetKernelArg itself on PoCL. A refused
// argument is named by its index, for the core's message.
xgpu_status kernel_launch_with_args(xgpu_queue queue, xgpu_kernel kernel, uint32_t arg_count,
                                    const xgpu_kernel_arg_v1* args, uint32_t dimensions,
                                    const size_t* global_offset, const size_t* global_size,
                                    const size_t* local_size, uint32_t /*flags*/,
                                    const xgpu_wait_v1* wait, xgpu_event* event,
                                    uint32_t* failed_arg) {
  return guard_compiling(queue, [&] {
    if ((args == nullptr && arg_count != 0) || failed_arg == nullptr) {
      fail(XGPU_STATUS_INVALID_VALUE, "kernel_launch_with_args: NULL args or failed_arg");
    }
    *failed_arg = arg_count;
    cl_kernel cl_kernel_handle = cl_kern(kernel);
    for (uint32_t i = 0; i < arg_count; ++i) {
      const xgpu_kernel_arg_v1& arg = args[i];
      cl_int status;
      if (arg.kind == XGPU_KERNEL_ARG_BUFFER) {
        auto mem = reinterpret_cast<cl_mem>(arg.buffer);
        status = clSetKernelArg(cl_kernel_handle, i, sizeof(mem), &mem);
      } else {
        const void* value = arg.kind == XGPU_KERNEL_ARG_LOCAL ? nullptr : arg.value;
        status = clSetKernelArg(cl_kernel_handle, i, arg.size, value);
      }
      if (status != CL_SUCCESS) {
        *failed_arg = i;
        check_arg(status, "clSetKernelArg", i);
      }
    }
    WaitList list(wait, event);
    size_t chosen[3];
    check(clEnqueueNDRangeKernel(
              reinterpret_cast<cl_command_queue>(queue), cl_kernel_handle, dimensions,
              global_offset, global_size,
              launch_local_size(cl_kernel_handle, dimensions, global_size, local_size, chosen),
              list.count, list.events, list.event_out),
          "clEnqueueNDRangeKernel");
    hold_queue_for_event(reinterpret_cast<cl_command_queue>(queue), list.event_out);
    return XGPU_STATUS_SUCCESS;
  });
}

}  // namespace xgpu::backend_opencl

namespace xgpu::backend_opencl {

xgpu_status kernel_limit(xgpu_kernel kernel, xgpu_device device, uint32_t property,
                         uint64_t* value) {
  return guard_on(kernel, [&] {
    auto cl_device = reinterpret_cast<cl_device_id>(device);
    // CL_KERNEL_WORK_GROUP_SIZE and the multiple are size_t, the memory sizes cl_ulong.
    auto query = [&](cl_kernel_work_group_info param, auto result) {
      return [&, param, result]() mutable {
        check(clGetKernelWorkGroupInfo(cl_kern(kernel), cl_device, param, sizeof(result), &result,
                                       nullptr),
              "clGetKernelWorkGroupInfo");
        return uint64_t{result};
      };
    };
    common::answer_kernel_limit(
        property, value,
        common::KernelLimitReaders{query(CL_KERNEL_WORK_GROUP_SIZE, size_t{0}),
                                   query(CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, size_t{0}),
                                   query(CL_KERNEL_LOCAL_MEM_SIZE, cl_ulong{0}),
                                   query(CL_KERNEL_PRIVATE_MEM_SIZE, cl_ulong{0})});
    return XGPU_STATUS_SUCCESS;
  });
}

}  // namespace xgpu::backend_opencl
