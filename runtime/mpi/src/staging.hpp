// Staging memory for the staged transport, kept per context and reused across collectives:
// pinned memory from Context::alloc_host where the driver's is known safe to hand MPI, else
// ordinary page-aligned memory of xgpu's own.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <xgpu/context.hpp>
#include <xgpu/host_buffer.hpp>

namespace xgpu::mpi::detail {

struct StagingBlock;
struct StagingPool;

/// One block of at least `bytes`, the caller's until it goes.
class Staging {
 public:
  Staging(const Context& context, std::size_t bytes, bool pinned);
  ~Staging();
  Staging(const Staging&) = delete;
  Staging& operator=(const Staging&) = delete;

  unsigned char* data() const;
  /// The pinned block as a HostBuffer, for Queue::read_async/write_async; nullptr when the
  /// block is ordinary memory.
  const HostBuffer<std::uint8_t>* host() const;

 private:
  std::shared_ptr<StagingPool> pool_;
  std::unique_ptr<StagingBlock> block_;
};

}  // namespace xgpu::mpi::detail
