// detail::Internals: the one way from a public object to the state behind it, and back. The
// public headers declare it a friend and nothing more, so that no program can reach a
// Device's record, a Program's state or a buffer's memory; only libxgpu's own sources include
// this file (it is not installed). Libraries built on xgpu use <xgpu/extension.hpp> instead.
#pragma once

#include <memory>
#include <utility>

#include "xgpu/buffer.hpp"
#include "xgpu/context.hpp"
#include "xgpu/device.hpp"
#include "xgpu/event.hpp"
#include "xgpu/program.hpp"
#include "xgpu/queue.hpp"

namespace xgpu::detail {

struct Internals {
  static const BufferCore& core(const UntypedBuffer& buffer) noexcept { return buffer.core_; }
  static UntypedBuffer untyped(BufferCore core) { return UntypedBuffer(std::move(core)); }

  static Device device(const DeviceRecord* record) { return Device(record); }
  static const DeviceRecord* record(const Device& device) noexcept { return device.record_; }

  /// The state, or an invalid_handle error for an empty Context.
  static const std::shared_ptr<ContextState>& state(const Context& context) {
    return context.state();
  }

  static Program program(std::shared_ptr<const ProgramState> state) {
    return Program(std::move(state));
  }
  static const std::shared_ptr<const ProgramState>& state(const Program& program) noexcept {
    return program.state_;
  }

  static Kernel kernel(std::shared_ptr<KernelState> state) { return Kernel(std::move(state)); }
  static const std::shared_ptr<KernelState>& state(const Kernel& kernel) noexcept {
    return kernel.state_;
  }

  static Event event(Handle<ObjectKind::event> handle, const char* command,
                     const DeviceRecord* device,
                     std::shared_ptr<const KernelState> kernel = nullptr) {
    return Event(std::move(handle), command, device, std::move(kernel));
  }

  static Queue queue(Context context, Handle<ObjectKind::queue> handle, bool profiling) {
    return Queue(std::move(context), std::move(handle), profiling);
  }
};

}  // namespace xgpu::detail
