// Checking C++ kernel arguments against a kernel's parameters before anything is enqueued.
#pragma once

#include <cstdint>

#include "internals.hpp"
#include "objects.hpp"
#include "xgpu/backend.h"
#include "xgpu/kernel_args.hpp"

namespace xgpu::detail {

/// The failures prepare_value() checks for, composed out of line (only when one happens).
[[noreturn]] void bad_value(const KernelState& kernel, std::size_t index, const KernelArg& arg,
                            const void* context);

/// What depends on this launch's values whatever the argument's type: a buffer that is empty,
/// of another context or a view off the device's alignment, local memory of 0 bytes. Fills `out`
/// (what the module is given) with the value as given. Inline: it runs for every argument of every
/// launch.
inline void prepare_value(const KernelState& kernel, std::size_t index, const KernelArg& arg,
                          const void* context, xgpu_kernel_arg_v1& out) {
  out.size = arg.size;
  out.value = arg.value;
  out.buffer = nullptr;
  switch (arg.kind) {
    case ArgKind::buffer:
      // A view that is no sub-buffer (Buffer::view) has an offset no kernel can be given.
      if (detail::Internals::core(*arg.buffer).context != context ||
          detail::Internals::core(*arg.buffer).offset != 0)
        bad_value(kernel, index, arg, context);
      out.buffer = static_cast<xgpu_buffer>(detail::Internals::core(*arg.buffer).handle.get());
      out.kind = XGPU_KERNEL_ARG_BUFFER;
      return;
    case ArgKind::null_buffer:
      out.kind = XGPU_KERNEL_ARG_BUFFER;
      return;
    case ArgKind::local:
      if (arg.size == 0) bad_value(kernel, index, arg, context);
      out.kind = XGPU_KERNEL_ARG_LOCAL;
      return;
    default:
      out.kind = XGPU_KERNEL_ARG_VALUE;
  }
}

/// The argument's kind, address space and type against the kernel's parameter. An integer of
/// another type is converted when its value fits: then `out` points at `converted`, and the
/// check depends on the value, so it runs at every launch (see arg_pattern.hpp).
void check_against_signature(const KernelState& kernel, std::size_t index, const KernelArg& arg,
                             xgpu_kernel_arg_v1& out, std::uint64_t& converted);

/// Both: checks argument `index` of `kernel` and prepares it; `context` is the launching
/// queue's backend context. Throws argument_type or context_mismatch naming kernel and
/// argument.
inline void prepare_argument(const KernelState& kernel, std::size_t index, const KernelArg& arg,
                             const void* context, xgpu_kernel_arg_v1& out,
                             std::uint64_t& converted) {
  prepare_value(kernel, index, arg, context, out);
  check_against_signature(kernel, index, arg, out, converted);
}

}  // namespace xgpu::detail
