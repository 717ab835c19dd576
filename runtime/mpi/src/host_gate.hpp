// HostGate: an xgpu Event that the host completes, so a queue can wait for work done on the host
// (a non-blocking collective's MPI calls). The core has no such event; the opencl module's
// devices get one through interop: an OpenCL user event, a barrier on it at the head of a queue
// kept for gates, and that queue's marker as the xgpu Event. Other backends get none: open()
// returns an empty gate and the caller falls back (docs/mpi.md).
#pragma once

#include <memory>
#include <xgpu/event.hpp>
#include <xgpu/queue.hpp>

namespace xgpu::mpi::detail {

class HostGate {
 public:
  HostGate() = default;
  /// A gate on `gates`, a queue used for nothing else (its commands all wait on their gates, in
  /// order). Empty when the queue's backend offers none.
  static HostGate open(Queue& gates);

  explicit operator bool() const noexcept { return static_cast<bool>(state_); }
  /// Completes at complete().
  const Event& event() const;
  /// Completes the event, once, whether the host's work succeeded (`ok`) or not: the event
  /// cannot carry the failure (see host_gate.cpp), the caller reports it. A gate never
  /// completed completes when its last copy goes, so no queue waits forever.
  void complete(bool ok) const;

 private:
  struct State;
  std::shared_ptr<State> state_;
};

}  // namespace xgpu::mpi::detail
