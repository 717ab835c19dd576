// Module life, devices and object handles: init, status names, device enumeration, retain,
// release and native_handle. (last_error is xgpu::common::last_error.)
#include "xgpu/common/module_entries.hpp"

#include "entries.hpp"
#include "errors.hpp"
#include "handles.hpp"
#include "registry.hpp"
#include "status_names.hpp"

namespace xgpu::backend_cuda {
namespace {

// Every kind but devices is an Object; devices live as long as the module.
Object* counted(uint32_t object_kind, void* object) {
  if (object == nullptr) fail(XGPU_STATUS_INVALID_VALUE, "NULL object");
  switch (object_kind) {
    case XGPU_OBJECT_DEVICE:
      return nullptr;
    case XGPU_OBJECT_CONTEXT:
    case XGPU_OBJECT_QUEUE:
    case XGPU_OBJECT_BUFFER:
    case XGPU_OBJECT_PROGRAM:
    case XGPU_OBJECT_KERNEL:
    case XGPU_OBJECT_EVENT:
      return static_cast<Object*>(object);
  }
  fail(XGPU_STATUS_INVALID_VALUE, "unknown object kind " + std::to_string(object_kind));
}

}  // namespace

xgpu_status init(const xgpu_host_v1* host) {
  return common::module_init(host, "cuda", registry_init);
}

xgpu_status device_count(uint32_t* count) {
  return common::module_device_count(count, registry_device_count);
}

xgpu_status device_get(uint32_t index, xgpu_device* device) {
  return common::module_device_get(
      index, device, [](uint32_t i) { return reinterpret_cast<xgpu_device>(&registry_device(i)); });
}

xgpu_status retain(uint32_t object_kind, void* object) {
  return guard([&] {
    if (Object* counted_object = counted(object_kind, object)) retain_object(counted_object);
    return XGPU_STATUS_SUCCESS;
  });
}

xgpu_status release(uint32_t object_kind, void* object) {
  return guard([&] {
    if (Object* counted_object = counted(object_kind, object)) release_object(counted_object);
    return XGPU_STATUS_SUCCESS;
  });
}

// CUdeviceptr, CUstream, CUcontext, CUmodule, CUfunction, CUevent, and the CUdevice ordinal,
// each carried in the void* (xgpu/cuda.hpp converts them back).
xgpu_status native_handle(uint32_t object_kind, void* object, void** native) {
  return guard([&] {
    if (native == nullptr) fail(XGPU_STATUS_INVALID_VALUE, "native_handle: NULL output");
    if (object == nullptr) fail(XGPU_STATUS_INVALID_VALUE, "native_handle: NULL object");
    switch (object_kind) {
      case XGPU_OBJECT_DEVICE:
        *native = reinterpret_cast<void*>(
            static_cast<uintptr_t>(registry_find(static_cast<xgpu_device>(object)).device));
        break;
      case XGPU_OBJECT_CONTEXT:
        *native = static_cast<Context*>(static_cast<Object*>(object))->context;
        break;
      case XGPU_OBJECT_QUEUE:
        *native = static_cast<Queue*>(static_cast<Object*>(object))->stream;
        break;
      case XGPU_OBJECT_BUFFER:
        *native = reinterpret_cast<void*>(
            static_cast<uintptr_t>(static_cast<Buffer*>(static_cast<Object*>(object))->pointer));
        break;
      case XGPU_OBJECT_PROGRAM:
        *native = static_cast<Program*>(static_cast<Object*>(object))->module;
        break;
      case XGPU_OBJECT_KERNEL:
        *native = static_cast<Kernel*>(static_cast<Object*>(object))->function;
        break;
      case XGPU_OBJECT_EVENT:
        *native = static_cast<Event*>(static_cast<Object*>(object))->end;
        break;
      default:
        fail(XGPU_STATUS_INVALID_VALUE, "unknown object kind " + std::to_string(object_kind));
    }
    return XGPU_STATUS_SUCCESS;
  });
}

}  // namespace xgpu::backend_cuda
