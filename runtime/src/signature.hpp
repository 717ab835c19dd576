// Checking C++ kernel arguments against a kernel's parameters before anything is enqueued.
#pragma once

#include <cstdint>

#include "objects.hpp"
#include "xgpu/kernel_args.hpp"

namespace xgpu::detail {

/// An argument ready for the module: what to pass, possibly converted.
struct PreparedArg {
  ArgKind kind = ArgKind::bytes;
  const void* value = nullptr;
  std::size_t size = 0;
  void* buffer = nullptr;       ///< raw backend buffer for buffer kinds (nullptr: NULL/empty)
  std::uint64_t converted = 0;  ///< storage for an integer converted to the parameter's type
};

/// Checks argument `index` of `kernel` and prepares it; `context` is the launching queue's
/// backend context. Throws argument_type or context_mismatch naming kernel and argument.
void prepare_argument(const KernelState& kernel, std::size_t index, const KernelArg& arg,
                      const void* context, PreparedArg& out);

}  // namespace xgpu::detail
