// Native handles through the module's optional native_handle member.
#include "xgpu/interop.hpp"

#include "internals.hpp"
#include "objects.hpp"
#include "registry.hpp"

namespace xgpu::interop {
namespace {

void* ask(const detail::Module& module, std::uint32_t kind, void* object,
          const detail::DeviceRecord* device, const char* what) {
  if (!module.has(&xgpu_backend_v1::native_handle))
    throw Error(Errc::unsupported, "the '" + module.name + "' backend offers no native handles",
                "xgpu::interop::native");
  void* native = nullptr;
  detail::check(module, module.table->native_handle(kind, object, &native), what, device);
  return native;
}

const detail::DeviceRecord* record_of(const Device& device) {
  if (!device)
    throw Error(Errc::invalid_handle, "this Device is empty (default-constructed)",
                "xgpu::interop::native");
  return detail::Internals::record(device);
}

}  // namespace

const std::string& backend(const Device& device) { return record_of(device)->module->name; }

std::string status_name(const std::string& backend, std::int32_t status) {
  const detail::Module* module = detail::Registry::instance().module_named(backend);
  if (module == nullptr)
    throw Error(Errc::invalid_argument, "no '" + backend + "' backend is loaded",
                "xgpu::interop::status_name");
  return module->status_name(status);
}

void* native(const Device& device) {
  const detail::DeviceRecord* record = record_of(device);
  return ask(*record->module, XGPU_OBJECT_DEVICE, record->raw, record, "native device handle");
}

void* native(const Context& context) {
  const auto& state = detail::state_of(detail::Internals::state(context), "Context");
  return ask(state.module(), XGPU_OBJECT_CONTEXT, state.handle.get(), state.record,
             "native context handle");
}

void* native(const Queue& queue) {
  if (!queue)
    throw Error(Errc::invalid_handle, "this Queue is empty (default-constructed or moved-from)",
                "xgpu::interop::native");
  const auto& state = detail::state_of(detail::Internals::state(queue.context()), "Context");
  return ask(state.module(), XGPU_OBJECT_QUEUE, queue.raw(), state.record, "native queue handle");
}

void* native(const Event& event) {
  if (!event)
    throw Error(Errc::invalid_handle, "this Event is empty (default-constructed or moved-from)",
                "xgpu::interop::native");
  return ask(*event.module(), XGPU_OBJECT_EVENT, event.raw(), nullptr, "native event handle");
}

void* native_buffer(const UntypedBuffer& untyped) {
  const detail::BufferCore& buffer = detail::Internals::core(untyped);
  if (buffer.offset != 0) {
    throw Error(Errc::invalid_argument,
                "this view starts " + std::to_string(buffer.start) +
                    " bytes into its buffer, off the device's base-address alignment (" +
                    std::to_string(buffer.device->info.base_address_alignment) +
                    " bytes): it has no native object of its own; use native_at() for the "
                    "object that holds it and the offset",
                "xgpu::interop::native");
  }
  std::size_t offset = 0;
  return native_buffer_at(untyped, offset);
}

void* native_buffer_at(const UntypedBuffer& untyped, std::size_t& byte_offset) {
  const detail::BufferCore& buffer = detail::Internals::core(untyped);
  byte_offset = buffer.offset;
  if (buffer.bytes == 0) return nullptr;
  // Whatever uses the handle is unknown to xgpu: the block's previous user must be done.
  if (buffer.allocation != nullptr && buffer.allocation->follows_previous_user())
    buffer.allocation->wait_for_previous_user();
  return ask(*buffer.handle.module(), XGPU_OBJECT_BUFFER, buffer.handle.get(), buffer.device,
             "native buffer handle");
}

}  // namespace xgpu::interop
