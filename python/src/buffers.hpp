// Pinned host memory (xgpu.empty_pinned) as the copies find it again: a HostBuffer of the
// element type, and where its bytes are.
#pragma once

#include <memory>
#include <variant>

#include "common.hpp"

namespace xgpu_python {

using AnyHostBuffer = std::variant<xgpu::HostBuffer<std::int8_t>, xgpu::HostBuffer<std::uint8_t>,
                                   xgpu::HostBuffer<std::int16_t>, xgpu::HostBuffer<std::uint16_t>,
                                   xgpu::HostBuffer<std::int32_t>, xgpu::HostBuffer<std::uint32_t>,
                                   xgpu::HostBuffer<std::int64_t>, xgpu::HostBuffer<std::uint64_t>,
                                   xgpu::HostBuffer<xgpu::half>, xgpu::HostBuffer<float>,
                                   xgpu::HostBuffer<double>, xgpu::HostBuffer<xgpu::bfloat16>>;

/// One xgpu.empty_pinned allocation; the NumPy array over it holds a reference.
struct PinnedHost {
  PinnedHost() = default;
  PinnedHost(const PinnedHost&) = delete;
  PinnedHost& operator=(const PinnedHost&) = delete;
  ~PinnedHost();  // forgets the address (the HostBuffer waits for its copies)

  AnyHostBuffer host;
  DType dtype = DType::uint8;
  std::uintptr_t address = 0;
  std::size_t bytes = 0;
  bool pinned = false;  ///< page-locked, or the ordinary-memory fallback (HostBuffer::pinned)
};

/// The pinned allocation holding [data, data + bytes), or nullptr.
std::shared_ptr<PinnedHost> find_pinned(const void* data, std::size_t bytes);

}  // namespace xgpu_python
