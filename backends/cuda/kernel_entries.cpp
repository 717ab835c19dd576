// Kernels: argument information from the translation's signatures, argument buffering, and
// the launch (grid = global / local; __local arguments as offsets into dynamic shared memory
// and the hidden launch-information parameter, as launch_contract.hpp says).
#include <algorithm>
#include <cstring>

#include "command.hpp"
#include "driver.hpp"
#include "entries.hpp"
#include "errors.hpp"
#include "handles.hpp"
#include "launch_contract.hpp"
#include "xgpu/common/module_entries.hpp"
#include "xgpu/common/out_param.hpp"

namespace xgpu::backend_cuda {
namespace {

// Without opting in, a kernel may use 48 KiB of shared memory in all (cuda.h).
constexpr size_t kDefaultSharedLimit = 48 * 1024;
// The work-group size chosen when the caller leaves it to the module: a multiple of every
// warp size, below every kernel's limit on current GPUs.
constexpr size_t kDefaultGroupSize = 256;

const ParamInfo& param_at(const Kernel& kernel, uint32_t index) {
  if (index >= kernel.info->params.size()) {
    fail(XGPU_STATUS_INVALID_VALUE, "kernel '" + kernel.info->name + "' has " +
                                        std::to_string(kernel.info->params.size()) +
                                        " arguments, no argument " + std::to_string(index));
  }
  return kernel.info->params[index];
}

[[noreturn]] void refuse(const Kernel& kernel, uint32_t index, const std::string& why) {
  const ParamInfo& param = kernel.info->params[index];
  fail(XGPU_STATUS_INVALID_VALUE, "kernel '" + kernel.info->name + "' argument " +
                                      std::to_string(index) + " (" + param.name + ", " +
                                      param.type + "): " + why);
}

bool is_local(const ParamInfo& param) { return param.address_space == XGPU_ADDRESS_LOCAL; }
bool is_memory(const ParamInfo& param) { return param.is_pointer && !is_local(param); }

void set_value(Kernel& kernel, uint32_t index, size_t size, const void* value) {
  const ParamInfo& param = param_at(kernel, index);
  if (is_local(param)) refuse(kernel, index, "a __local pointer takes a size (set_arg_local)");
  if (is_memory(param)) {
    // OpenCL's clSetKernelArg(NULL) on a pointer: a NULL pointer in the kernel.
    if (value != nullptr) refuse(kernel, index, "a buffer parameter takes a buffer");
    CUdeviceptr null_pointer = 0;
    kernel.values[index].assign(reinterpret_cast<unsigned char*>(&null_pointer),
                                reinterpret_cast<unsigned char*>(&null_pointer + 1));
    kernel.buffers[index] = Ref<Buffer>();
  } else {
    if (value == nullptr) refuse(kernel, index, "no value");
    if (param.value_size != 0 && size != param.value_size) {
      refuse(
          kernel, index,
          std::to_string(size) + " bytes given, " + std::to_string(param.value_size) + " expected");
    }
    const auto* bytes = static_cast<const unsigned char*>(value);
    kernel.values[index].assign(bytes, bytes + size);
  }
  kernel.set[index] = true;
}

void set_buffer(Kernel& kernel, uint32_t index, xgpu_buffer buffer) {
  const ParamInfo& param = param_at(kernel, index);
  if (!is_memory(param)) refuse(kernel, index, "not a __global or __constant pointer");
  CUdeviceptr pointer = 0;
  Ref<Buffer> held;
  if (buffer != nullptr) {
    Buffer& b = buffer_of(buffer);
    if (b.context.get() != kernel.program->context.get()) {
      refuse(kernel, index, "the buffer belongs to another context");
    }
    pointer = b.pointer;
    held = Ref<Buffer>::retain(&b);
  }
  kernel.values[index].assign(reinterpret_cast<unsigned char*>(&pointer),
                              reinterpret_cast<unsigned char*>(&pointer + 1));
  kernel.buffers[index] = std::move(held);
  kernel.set[index] = true;
}

void set_local(Kernel& kernel, uint32_t index, size_t size) {
  const ParamInfo& param = param_at(kernel, index);
  if (!is_local(param)) refuse(kernel, index, "not a __local pointer");
  if (size == 0) refuse(kernel, index, "local size 0");
  kernel.local_sizes[index] = size;
  kernel.set[index] = true;
}

int function_attribute(const Kernel& kernel, int attribute) {
  int value = 0;
  check(cu().cuFuncGetAttribute(&value, attribute, kernel.function), "cuFuncGetAttribute");
  return value;
}

// The largest divisor of `global` not above `limit`: uniform groups (launch contract, 4).
size_t divisor_at_most(size_t global, size_t limit) {
  for (size_t size = std::min(global, limit); size > 1; --size) {
    if (global % size == 0) return size;
  }
  return 1;
}

struct Grid {
  unsigned int blocks[3] = {1, 1, 1};
  unsigned int threads[3] = {1, 1, 1};
};

Grid grid_of(const Kernel& kernel, uint32_t dimensions, const size_t* global_size,
             const size_t* local_size) {
  if (dimensions < 1 || dimensions > 3) {
    fail(XGPU_STATUS_INVALID_VALUE,
         "work dimensions must be 1, 2 or 3, not " + std::to_string(dimensions));
  }
  if (global_size == nullptr) fail(XGPU_STATUS_INVALID_VALUE, "kernel_launch: no global size");
  const size_t limit =
      static_cast<size_t>(function_attribute(kernel, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK));
  Grid grid;
  size_t group_items = 1;
  for (uint32_t d = 0; d < dimensions; ++d) {
    if (global_size[d] == 0) fail(XGPU_STATUS_INVALID_VALUE, "global size 0");
    size_t local = 1;
    if (local_size != nullptr) {
      local = local_size[d];
      if (local == 0 || global_size[d] % local != 0) {
        fail(XGPU_STATUS_INVALID_VALUE,
             "global size " + std::to_string(global_size[d]) + " is not a multiple of the " +
                 "work-group size " + std::to_string(local) + " in dimension " + std::to_string(d) +
                 " (the cuda module has uniform work-groups only)");
      }
    } else if (d == 0) {
      // The module's choice: one dimension of up to 256 items dividing the global size.
      local = divisor_at_most(global_size[0], std::min(kDefaultGroupSize, limit));
    }
    const size_t blocks = global_size[d] / local;
    if (blocks > (d == 0 ? 0x7FFFFFFFu : 65535u)) {
      fail(XGPU_STATUS_INVALID_VALUE, "global size " + std::to_string(global_size[d]) +
                                          " needs more blocks than CUDA allows in dimension " +
                                          std::to_string(d));
    }
    grid.blocks[d] = static_cast<unsigned int>(blocks);
    grid.threads[d] = static_cast<unsigned int>(local);
    group_items *= local;
  }
  if (group_items > limit) {
    fail(XGPU_STATUS_INVALID_VALUE, "work-group of " + std::to_string(group_items) +
                                        " items, kernel '" + kernel.info->name + "' allows " +
                                        std::to_string(limit));
  }
  return grid;
}

void launch(Queue& queue, Kernel& kernel, uint32_t dimensions, const size_t* global_offset,
            const size_t* global_size, const size_t* local_size, const xgpu_wait_v1* wait,
            xgpu_event* event) {
  if (queue.context.get() != kernel.program->context.get()) {
    fail(XGPU_STATUS_INVALID_VALUE, "kernel_launch: the kernel belongs to another context");
  }
  const size_t count = kernel.info->params.size();
  for (size_t i = 0; i < count; ++i) {
    if (!kernel.set[i]) {
      fail(XGPU_STATUS_INVALID_VALUE, "kernel '" + kernel.info->name + "' argument " +
                                          std::to_string(i) + " (" + kernel.info->params[i].name +
                                          ") is not set");
    }
  }
  Command command(queue, wait, event);
  const Grid grid = grid_of(kernel, dimensions, global_size, local_size);
  // __local arguments: each at the next aligned offset of dynamic shared memory.
  const size_t alignment = local_argument_alignment();
  std::vector<uint32_t> local_offsets(count, 0);
  size_t shared = 0;
  for (size_t i = 0; i < count; ++i) {
    if (!is_local(kernel.info->params[i])) continue;
    shared = (shared + alignment - 1) / alignment * alignment;
    local_offsets[i] = static_cast<uint32_t>(shared);
    shared += kernel.local_sizes[i];
  }
  if (shared > kDefaultSharedLimit) {
    // Beyond 48 KiB a kernel must opt in; the driver refuses sizes the device lacks.
    check(cu().cuFuncSetAttribute(kernel.function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                  static_cast<int>(shared)),
          "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)");
  }
  std::vector<unsigned char> information =
      launch_information(dimensions, global_offset, global_size);
  std::vector<void*> parameters(count + 1);
  for (size_t i = 0; i < count; ++i) {
    parameters[i] = is_local(kernel.info->params[i]) ? static_cast<void*>(&local_offsets[i])
                                                     : kernel.values[i].data();
  }
  parameters[count] = information.data();
  check(cu().cuLaunchKernel(kernel.function, grid.blocks[0], grid.blocks[1], grid.blocks[2],
                            grid.threads[0], grid.threads[1], grid.threads[2],
                            static_cast<unsigned int>(shared), queue.stream, parameters.data(),
                            nullptr),
        "cuLaunchKernel");
  command.enqueued();
}

}  // namespace

xgpu_status kernel_create(xgpu_program program, const char* name, xgpu_kernel* kernel) {
  return guard([&] {
    if (kernel == nullptr || name == nullptr) {
      fail(XGPU_STATUS_INVALID_VALUE, "kernel_create: NULL name or output");
    }
    Program& p = program_of(program);
    if (p.module == nullptr) fail(XGPU_STATUS_INVALID_VALUE, "kernel_create: program not built");
    auto found = std::find_if(p.kernels.begin(), p.kernels.end(),
                              [&](const KernelInfo& info) { return info.name == name; });
    if (found == p.kernels.end()) {
      fail(CUDA_ERROR_NOT_FOUND, std::string("no kernel named '") + name + "' in the program");
    }
    auto made = Ref<Kernel>::adopt(new Kernel);
    made->program = Ref<Program>::retain(&p);
    made->info = &*found;
    const size_t count = found->params.size();
    made->values.resize(count);
    made->buffers.resize(count);
    made->local_sizes.assign(count, 0);
    made->set.assign(count, false);
    ScopedContext scope(*p.context);
    check(cu().cuModuleGetFunction(&made->function, p.module, name), "cuModuleGetFunction");
    *kernel = handle_of<xgpu_kernel>(made.release());
    return XGPU_STATUS_SUCCESS;
  });
}

xgpu_status kernel_arg_count(xgpu_kernel kernel, uint32_t* count) {
  return guard([&] {
    if (count == nullptr) fail(XGPU_STATUS_INVALID_VALUE, "kernel_arg_count: NULL output");
    *count = static_cast<uint32_t>(kernel_of(kernel).info->params.size());
    return XGPU_STATUS_SUCCESS;
  });
}

xgpu_status kernel_arg_info(xgpu_kernel kernel, uint32_t index, uint32_t property, void* value,
                            size_t capacity, size_t* size_ret) {
  return guard([&] {
    const ParamInfo& param = param_at(kernel_of(kernel), index);
    switch (property) {
      case XGPU_ARG_NAME:
        common::copy_out(common::bytes_of_string(param.name), value, capacity, size_ret);
        break;
      case XGPU_ARG_TYPE_NAME:
        common::copy_out(common::bytes_of_string(param.type), value, capacity, size_ret);
        break;
      case XGPU_ARG_ADDRESS_SPACE:
        common::copy_out(common::bytes_of_u64(param.address_space), value, capacity, size_ret);
        break;
      default:
        fail(XGPU_STATUS_INVALID_VALUE, "unknown argument property " + std::to_string(property));
    }
    return XGPU_STATUS_SUCCESS;
  });
}

xgpu_status kernel_set_arg(xgpu_kernel kernel, uint32_t index, size_t size, const void* value) {
  return guard([&] {
    set_value(kernel_of(kernel), index, size, value);
    return XGPU_STATUS_SUCCESS;
  });
}

xgpu_status kernel_set_arg_buffer(xgpu_kernel kernel, uint32_t index, xgpu_buffer buffer) {
  return guard([&] {
    set_buffer(kernel_of(kernel), index, buffer);
    return XGPU_STATUS_SUCCESS;
  });
}

xgpu_status kernel_set_arg_local(xgpu_kernel kernel, uint32_t index, size_t size) {
  return guard([&] {
    set_local(kernel_of(kernel), index, size);
    return XGPU_STATUS_SUCCESS;
  });
}

xgpu_status kernel_launch(xgpu_queue queue, xgpu_kernel kernel, uint32_t dimensions,
                          const size_t* global_offset, const size_t* global_size,
                          const size_t* local_size, const xgpu_wait_v1* wait, xgpu_event* event) {
  return guard([&] {
    launch(queue_of(queue), kernel_of(kernel), dimensions, global_offset, global_size, local_size,
           wait, event);
    return XGPU_STATUS_SUCCESS;
  });
}

xgpu_status kernel_launch_with_args(xgpu_queue queue, xgpu_kernel kernel, uint32_t arg_count,
                                    const xgpu_kernel_arg_v1* args, uint32_t dimensions,
                                    const size_t* global_offset, const size_t* global_size,
                                    const size_t* local_size, uint32_t flags,
                                    const xgpu_wait_v1* wait, xgpu_event* event,
                                    uint32_t* failed_arg) {
  return guard([&] {
    Kernel& k = kernel_of(kernel);
    if (failed_arg != nullptr) *failed_arg = arg_count;
    if (flags != 0) fail(XGPU_STATUS_INVALID_VALUE, "kernel_launch_with_args: unknown flags");
    if (arg_count != 0 && args == nullptr) fail(XGPU_STATUS_INVALID_VALUE, "NULL arguments");
    for (uint32_t i = 0; i < arg_count; ++i) {
      if (failed_arg != nullptr) *failed_arg = i;
      switch (args[i].kind) {
        case XGPU_KERNEL_ARG_VALUE:
          set_value(k, i, args[i].size, args[i].value);
          break;
        case XGPU_KERNEL_ARG_BUFFER:
          set_buffer(k, i, args[i].buffer);
          break;
        case XGPU_KERNEL_ARG_LOCAL:
          set_local(k, i, args[i].size);
          break;
        default:
          fail(XGPU_STATUS_INVALID_VALUE, "unknown argument kind " + std::to_string(args[i].kind));
      }
    }
    if (failed_arg != nullptr) *failed_arg = arg_count;
    launch(queue_of(queue), k, dimensions, global_offset, global_size, local_size, wait, event);
    return XGPU_STATUS_SUCCESS;
  });
}

xgpu_status kernel_limit(xgpu_kernel kernel, xgpu_device device, uint32_t property,
                         uint64_t* value) {
  return guard([&] {
    Kernel& k = kernel_of(kernel);
    DeviceRecord& record = registry_find(device);
    ScopedContext scope(*k.program->context);
    auto function = [&](CUfunction_attribute attribute) {
      return [&k, attribute] { return uint64_t(function_attribute(k, attribute)); };
    };
    common::answer_kernel_limit(
        property, value,
        common::KernelLimitReaders{
            function(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK),
            [&] { return uint64_t(device_attribute(record, CU_DEVICE_ATTRIBUTE_WARP_SIZE)); },
            function(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES),
            function(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES)});
    return XGPU_STATUS_SUCCESS;
  });
}

}  // namespace xgpu::backend_cuda
