// detail::Internals: libxgpu-mpi's own way to the state behind its public objects (a Comm's
// shared state, a Request made from its state). The public headers declare it a friend and
// nothing more; only the library's sources include this file (it is not installed).
#pragma once

#include <memory>
#include <utility>
#include <xgpu/mpi/collectives.hpp>
#include <xgpu/mpi/comm.hpp>

namespace xgpu::mpi::detail {

struct Internals {
  static const std::shared_ptr<CommState>& state(const Comm& comm) { return comm.state(); }
  static Request request(std::shared_ptr<RequestState> state) { return Request(std::move(state)); }
};

}  // namespace xgpu::mpi::detail
