// A backend module with one simulated device ("stub device"), for the core's side of what
// only a device can show: a command that fails after it was enqueued, and a kernel whose own
// limits are below the device's.
//
// - Buffers are host memory; write, read, fill and copy happen at once, on the host.
// - A program holds one kernel, `scale(global int* data)`, whatever its source says; it
//   multiplies each element by 2. Its maximum work-group is 32, the device's 256.
// - A fill, copy or kernel whose data begins with the int kPoison (a fill of that value, a copy
//   from a buffer that begins with it, a kernel on such a buffer) "fails on the device": it
//   is enqueued without error, its event's status is kStubCommandFailed, event_wait reports
//   kStubCommandFailed as OpenCL's clWaitForEvents reports a failed command, and the queue's
//   next finish does too. The test picks the failing command by its data, not by a variable
//   (setenv() while other threads read the environment can crash them).
//
// - Its table ends before kernel_launch_with_args, as an older module's does: the core sets
//   arguments one call at a time, then calls kernel_launch.
//
// Built a second time with XGPU_STUB_AS_OPENCL (xgpu-backend-stub-as-opencl): named "opencl"
// so that, first on XGPU_BACKEND_PATH, it stands in for the OpenCL module; a GPU reporting the
// UUID of the fake libcuda's device 0 (tests/backends/cuda/fake_host_libcuda.c), so the two
// modules see one GPU, as NVIDIA's OpenCL and CUDA do (PoCL reports no UUID to share).
//
// Objects live until the module is unloaded (retain and release count nothing: a test
// module, kept small); they stay reachable from one store, so leak checkers do not report them.
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "xgpu/backend.h"
#include "xgpu/common/errors.hpp"
#include "xgpu/common/log.hpp"
#include "xgpu/common/out_param.hpp"
#include "xgpu/common/status_names.hpp"

namespace xgpu::stub_device {

using common::copy_out;
using common::fail;
using common::guard;

constexpr xgpu_status kStubCommandFailed = -9001;
constexpr int32_t kPoison = -9001;  ///< data that makes a command fail (see the top)
constexpr uint64_t kDeviceMaxGroup = 256, kKernelMaxGroup = 32;
#ifdef XGPU_STUB_AS_OPENCL
constexpr const char* kModuleName = "opencl";
constexpr uint64_t kDeviceType = XGPU_TYPE_GPU;
#else
constexpr const char* kModuleName = "stubdevice";
constexpr uint64_t kDeviceType = XGPU_TYPE_ACCELERATOR;
#endif

struct StubQueue {
  xgpu_status failed = XGPU_STATUS_SUCCESS;  ///< a failure finish has yet to report
};
struct StubBuffer {
  std::vector<unsigned char> bytes;
};
struct StubKernel {
  StubBuffer* data = nullptr;
};
struct StubEvent {
  int32_t status = XGPU_EVENT_COMPLETE;
};
int device_token, context_token, program_token;  // their addresses are the handles

// Every object made, at a stable address, until the module is unloaded.
template <class T>
T* make() {
  static std::mutex mutex;
  static std::deque<T> store;
  std::lock_guard<std::mutex> lock(mutex);
  return &store.emplace_back();
}

const char* status_name(xgpu_status status) {
  if (status == kStubCommandFailed) return "STUB_COMMAND_FAILED";
  return xgpu::common::status_name_or_unknown(status);
}

// Whether a command's data begins with kPoison.
bool poisoned(const void* data, size_t size) {
  int32_t first = 0;
  if (size < sizeof first) return false;
  std::memcpy(&first, data, sizeof first);
  return first == kPoison;
}

// The event of a command just "run": failed when its data was poisoned.
void finish_command(xgpu_queue queue, bool fails, xgpu_event* event) {
  auto* done = make<StubEvent>();
  if (fails) {
    done->status = kStubCommandFailed;
    reinterpret_cast<StubQueue*>(queue)->failed = kStubCommandFailed;
  }
  if (event != nullptr) *event = reinterpret_cast<xgpu_event>(done);
}

xgpu_status init(const xgpu_host_v1* host) {
  return guard([&] {
    xgpu::common::set_log_host(host);
    return XGPU_STATUS_SUCCESS;
  });
}

xgpu_status retain(uint32_t, void*) { return XGPU_STATUS_SUCCESS; }
xgpu_status release(uint32_t, void*) { return XGPU_STATUS_SUCCESS; }

xgpu_status device_count(uint32_t* count) {
  *count = 1;
  return XGPU_STATUS_SUCCESS;
}
xgpu_status device_get(uint32_t, xgpu_device* device) {
  *device = reinterpret_cast<xgpu_device>(&device_token);
  return XGPU_STATUS_SUCCESS;
}

xgpu_status device_info(xgpu_device, uint32_t property, void* value, size_t capacity,
                        size_t* size_ret) {
  return guard([&] {
    using namespace xgpu::common;
    switch (property) {
      case XGPU_DEVICE_NAME:
        copy_out(bytes_of_string("stub device"), value, capacity, size_ret);
        break;
      case XGPU_DEVICE_PLATFORM_NAME:
        copy_out(bytes_of_string("stub platform"), value, capacity, size_ret);
        break;
      case XGPU_DEVICE_TYPE:
        copy_out(bytes_of_u64(kDeviceType), value, capacity, size_ret);
        break;
#ifdef XGPU_STUB_AS_OPENCL
      case XGPU_DEVICE_UUID:
        copy_out(bytes_of_string("a0a1a2a3a4a5a6a7a8a9aaabacadaeaf"), value, capacity, size_ret);
        break;
#endif
      case XGPU_DEVICE_GLOBAL_MEM:
      case XGPU_DEVICE_MAX_ALLOC:
        copy_out(bytes_of_u64(1 << 20), value, capacity, size_ret);
        break;
      case XGPU_DEVICE_LOCAL_MEM:
        copy_out(bytes_of_u64(16384), value, capacity, size_ret);
        break;
      case XGPU_DEVICE_COMPUTE_UNITS:
        copy_out(bytes_of_u64(1), value, capacity, size_ret);
        break;
      case XGPU_DEVICE_MAX_WORK_GROUP:
        copy_out(bytes_of_u64(kDeviceMaxGroup), value, capacity, size_ret);
        break;
      case XGPU_DEVICE_MAX_WORK_ITEMS: {
        const uint64_t sizes[3] = {kDeviceMaxGroup, kDeviceMaxGroup, kDeviceMaxGroup};
        copy_out(bytes_of_u64s(sizes, 3), value, capacity, size_ret);
        break;
      }
      default:
        fail(XGPU_STATUS_NOT_AVAILABLE, "stub device: property not simulated");
    }
    return XGPU_STATUS_SUCCESS;
  });
}

xgpu_status context_create(xgpu_device, xgpu_context* context) {
  *context = reinterpret_cast<xgpu_context>(&context_token);
  return XGPU_STATUS_SUCCESS;
}
xgpu_status queue_create(xgpu_context, xgpu_device, uint32_t, xgpu_queue* queue) {
  *queue = reinterpret_cast<xgpu_queue>(make<StubQueue>());
  return XGPU_STATUS_SUCCESS;
}
xgpu_status queue_flush(xgpu_queue) { return XGPU_STATUS_SUCCESS; }
xgpu_status queue_finish(xgpu_queue queue) {
  return guard([&] {
    auto* stub = reinterpret_cast<StubQueue*>(queue);
    const xgpu_status failed = stub->failed;
    stub->failed = XGPU_STATUS_SUCCESS;
    if (failed != XGPU_STATUS_SUCCESS) fail(failed, "stub device: a command of the queue failed");
    return XGPU_STATUS_SUCCESS;
  });
}

StubBuffer& buffer_of(xgpu_buffer buffer) { return *reinterpret_cast<StubBuffer*>(buffer); }

xgpu_status buffer_create(xgpu_context, uint32_t, size_t size, xgpu_buffer* buffer) {
  auto* created = make<StubBuffer>();
  created->bytes.assign(size, 0);
  *buffer = reinterpret_cast<xgpu_buffer>(created);
  return XGPU_STATUS_SUCCESS;
}
xgpu_status buffer_write(xgpu_queue queue, xgpu_buffer buffer, uint32_t, size_t offset, size_t size,
                         const void* source, const xgpu_wait_v1*, xgpu_event* event) {
  std::memcpy(buffer_of(buffer).bytes.data() + offset, source, size);
  finish_command(queue, false, event);
  return XGPU_STATUS_SUCCESS;
}
xgpu_status buffer_read(xgpu_queue queue, xgpu_buffer buffer, uint32_t, size_t offset, size_t size,
                        void* destination, const xgpu_wait_v1*, xgpu_event* event) {
  std::memcpy(destination, buffer_of(buffer).bytes.data() + offset, size);
  finish_command(queue, false, event);
  return XGPU_STATUS_SUCCESS;
}
xgpu_status buffer_copy(xgpu_queue queue, xgpu_buffer source, xgpu_buffer destination,
                        size_t source_offset, size_t destination_offset, size_t size,
                        const xgpu_wait_v1*, xgpu_event* event) {
  const bool fails = poisoned(buffer_of(source).bytes.data() + source_offset, size);
  std::memmove(buffer_of(destination).bytes.data() + destination_offset,
               buffer_of(source).bytes.data() + source_offset, size);
  finish_command(queue, fails, event);
  return XGPU_STATUS_SUCCESS;
}
xgpu_status buffer_fill(xgpu_queue queue, xgpu_buffer buffer, const void* pattern,
                        size_t pattern_size, size_t offset, size_t size, const xgpu_wait_v1*,
                        xgpu_event* event) {
  for (size_t at = 0; at < size; at += pattern_size)
    std::memcpy(buffer_of(buffer).bytes.data() + offset + at, pattern, pattern_size);
  finish_command(queue, poisoned(pattern, pattern_size), event);
  return XGPU_STATUS_SUCCESS;
}
xgpu_status buffer_map(xgpu_queue, xgpu_buffer, uint32_t, size_t, size_t, void**,
                       const xgpu_wait_v1*, xgpu_event*) {
  xgpu::common::set_last_error("stub device: map is not simulated");
  return XGPU_STATUS_UNSUPPORTED;
}
xgpu_status buffer_unmap(xgpu_queue, xgpu_buffer, void*, const xgpu_wait_v1*, xgpu_event*) {
  return XGPU_STATUS_UNSUPPORTED;
}

xgpu_status program_create(xgpu_context, const char*, size_t, xgpu_program* program) {
  *program = reinterpret_cast<xgpu_program>(&program_token);
  return XGPU_STATUS_SUCCESS;
}
xgpu_status program_build(xgpu_program, xgpu_device, const char*) { return XGPU_STATUS_SUCCESS; }
xgpu_status program_build_log(xgpu_program, xgpu_device, char* buffer, size_t capacity,
                              size_t* size_ret) {
  return guard([&] {
    copy_out(xgpu::common::bytes_of_string(""), buffer, capacity, size_ret);
    return XGPU_STATUS_SUCCESS;
  });
}
xgpu_status program_kernel_names(xgpu_program, char* buffer, size_t capacity, size_t* size_ret) {
  return guard([&] {
    copy_out(xgpu::common::bytes_of_string("scale"), buffer, capacity, size_ret);
    return XGPU_STATUS_SUCCESS;
  });
}

xgpu_status kernel_create(xgpu_program, const char*, xgpu_kernel* kernel) {
  *kernel = reinterpret_cast<xgpu_kernel>(make<StubKernel>());
  return XGPU_STATUS_SUCCESS;
}
xgpu_status kernel_arg_count(xgpu_kernel, uint32_t* count) {
  *count = 1;
  return XGPU_STATUS_SUCCESS;
}
xgpu_status kernel_arg_info(xgpu_kernel, uint32_t, uint32_t property, void* value, size_t capacity,
                            size_t* size_ret) {
  return guard([&] {
    using namespace xgpu::common;
    if (property == XGPU_ARG_NAME) copy_out(bytes_of_string("data"), value, capacity, size_ret);
    if (property == XGPU_ARG_TYPE_NAME)
      copy_out(bytes_of_string("int*"), value, capacity, size_ret);
    if (property == XGPU_ARG_ADDRESS_SPACE)
      copy_out(bytes_of_u64(XGPU_ADDRESS_GLOBAL), value, capacity, size_ret);
    return XGPU_STATUS_SUCCESS;
  });
}
xgpu_status kernel_set_arg(xgpu_kernel, uint32_t, size_t, const void*) {
  return XGPU_STATUS_INVALID_VALUE;
}
xgpu_status kernel_set_arg_buffer(xgpu_kernel kernel, uint32_t, xgpu_buffer buffer) {
  reinterpret_cast<StubKernel*>(kernel)->data = &buffer_of(buffer);
  return XGPU_STATUS_SUCCESS;
}
xgpu_status kernel_set_arg_local(xgpu_kernel, uint32_t, size_t) {
  return XGPU_STATUS_INVALID_VALUE;
}
xgpu_status kernel_launch(xgpu_queue queue, xgpu_kernel kernel, uint32_t, const size_t*,
                          const size_t* global_size, const size_t*, const xgpu_wait_v1*,
                          xgpu_event* event) {
  return guard([&] {
    // The argument is consumed: each launch must set it again (kernel_set_arg_buffer), as a
    // module without kernel_launch_with_args expects of the core.
    // And, like such a module, it may write the event unconditionally: the core must always
    // give it somewhere to (Queue::submit keeps no event, but the old ABI always asked).
    if (event == nullptr) fail(XGPU_STATUS_INVALID_VALUE, "stub: kernel_launch given no event");
    StubBuffer* data = std::exchange(reinterpret_cast<StubKernel*>(kernel)->data, nullptr);
    if (data == nullptr)
      fail(XGPU_STATUS_INVALID_VALUE, "stub: kernel launched without its argument");
    auto* values = reinterpret_cast<int32_t*>(data->bytes.data());
    const bool fails = poisoned(data->bytes.data(), data->bytes.size());
    for (size_t i = 0; i < global_size[0] && !fails; ++i) values[i] *= 2;
    finish_command(queue, fails, event);
    return XGPU_STATUS_SUCCESS;
  });
}
xgpu_status kernel_limit(xgpu_kernel, xgpu_device, uint32_t property, uint64_t* value) {
  if (property != XGPU_KERNEL_MAX_WORK_GROUP_SIZE) return XGPU_STATUS_NOT_AVAILABLE;
  *value = kKernelMaxGroup;
  return XGPU_STATUS_SUCCESS;
}

xgpu_status event_wait(const xgpu_event* events, uint32_t count) {
  return guard([&] {
    for (uint32_t i = 0; i < count; ++i) {
      if (reinterpret_cast<StubEvent*>(events[i])->status < 0)
        fail(kStubCommandFailed, "stub device: a command in the wait list failed");
    }
    return XGPU_STATUS_SUCCESS;
  });
}
xgpu_status event_status(xgpu_event event, int32_t* status) {
  *status = reinterpret_cast<StubEvent*>(event)->status;
  return XGPU_STATUS_SUCCESS;
}
xgpu_status event_profile(xgpu_event, uint32_t, uint64_t*) { return XGPU_STATUS_UNSUPPORTED; }

// The members it does not simulate (backend_fallbacks.inc) refuse, as unsupported.
template <auto Member, class... Args>
xgpu_status fallback(Args...) {
  common::set_last_error("stub device: not simulated");
  return XGPU_STATUS_UNSUPPORTED;
}

#include "xgpu/common/backend_fallbacks.inc"
#include "xgpu/common/backend_table.inc"

xgpu_backend_v1 make_table() {
  xgpu_backend_v1 t = make_backend_table(kModuleName);
  // A module built before kernel_launch_with_args: its table ends with blas_gemm, and it has
  // none of the optional members before that but kernel_limit.
  t.program_binary = nullptr;
  t.program_create_binary = nullptr;
  t.native_handle = nullptr;
  t.blas_gemm = nullptr;
  t.struct_size = static_cast<uint32_t>(offsetof(xgpu_backend_v1, blas_gemm) + sizeof(void*));
  return t;
}

}  // namespace xgpu::stub_device

extern "C" __attribute__((visibility("default"))) const xgpu_backend_v1* xgpu_backend_entry(
    uint32_t) {
  static const xgpu_backend_v1 table = xgpu::stub_device::make_table();
  return &table;
}
