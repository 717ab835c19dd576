// Buffer<T>::view: a range of a buffer as a buffer of its own. It shares the buffer's
// allocation (so the memory stays allocated, and the pool's ordering covers it) and is a
// sub-buffer of the allocation's driver buffer where the device's base-address alignment
// allows; elsewhere it is the parent's memory at a byte offset, which copies and maps add and
// kernels refuse (docs/memory.md, "Views").
#include <string>

#include "../internals.hpp"
#include "../log.hpp"
#include "../module.hpp"
#include "../registry.hpp"
#include "allocation.hpp"
#include "xgpu/error.hpp"

namespace xgpu::detail {
namespace {

[[noreturn]] void view_out_of_range(std::size_t offset, std::size_t count, std::size_t size) {
  throw Error(Errc::out_of_range,
              "Buffer::view of " + std::to_string(count) + " element(s) at offset " +
                  std::to_string(offset) + " reaches past the end of a buffer of " +
                  std::to_string(size) + " element(s)",
              "Buffer::view");
}

// The alignment a sub-buffer's offset needs: the device's, or a page when it does not say
// (any rule known is at most that; the pool assumes the same).
std::size_t sub_buffer_alignment(const DeviceRecord& device) {
  const std::uint64_t reported = device.info.base_address_alignment;
  return reported != 0 ? static_cast<std::size_t>(reported) : 4096;
}

// A sub-buffer of the allocation's driver buffer for [start, start + bytes), or an empty
// handle where the module has none or refuses (the caller falls back to an offset view).
Handle<ObjectKind::buffer> sub_buffer(const BufferCore& parent, std::size_t start,
                                      std::size_t bytes) {
  const Module& module = *parent.handle.module();
  if (parent.allocation == nullptr || !module.has(&xgpu_backend_v1::buffer_create_sub) ||
      start % sub_buffer_alignment(*parent.device) != 0)
    return {};
  std::size_t base = 0;
  void* root = parent.allocation->root(base);
  xgpu_buffer raw = nullptr;
  const xgpu_status status = module.table->buffer_create_sub(
      static_cast<xgpu_buffer>(root), parent.allocation->access, base + start, bytes, &raw);
  if (status == XGPU_STATUS_SUCCESS) return Handle<ObjectKind::buffer>::adopt(&module, raw);
  logger().debug("a view of {} bytes at {} is an offset view: the driver refused a sub-buffer ({})",
                 bytes, start, module.status_name(status));
  return {};
}

}  // namespace

UntypedBuffer buffer_view(const UntypedBuffer& whole, std::size_t element_size, std::size_t offset,
                          std::size_t count) {
  const BufferCore& parent = Internals::core(whole);
  const std::size_t size = parent.bytes / element_size;
  if (offset > size) view_out_of_range(offset, count == all ? 0 : count, size);
  if (count == all) count = size - offset;
  if (count > size - offset) view_out_of_range(offset, count, size);
  if (count == size) return whole;  // the whole buffer: itself
  BufferCore view;
  view.context = parent.context;
  view.device = parent.device;
  if (count == 0)
    return Internals::untyped(
        std::move(view));  // as Context::alloc(0): an empty buffer has no object
  view.bytes = count * element_size;
  view.start = parent.start + offset * element_size;
  view.allocation = parent.allocation;
  view.handle = sub_buffer(parent, view.start, view.bytes);
  if (!view.handle) {
    view.handle = parent.handle;
    view.offset = parent.offset + offset * element_size;
  }
  return Internals::untyped(std::move(view));
}

}  // namespace xgpu::detail
